project_json_src='''
[
    {
        "op": "Lenet5Custom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Lenet5CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);          // N * C
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, outHeight);
  TILING_DATA_FIELD_DEF(uint32_t, outWidth);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerTile);   // how many H x W planes go into UB at once
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Lenet5Custom, Lenet5CustomTilingData)
}
"""

host_operator_src="""
#include "lenet5_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_IN_ELEMS = 8192;   // 32KB of fp32 input per tile (double buffered)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape &s = context->GetInputShape(0)->GetStorageShape();
    if (s.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = s.GetDim(0), c = s.GetDim(1), h = s.GetDim(2), w = s.GetDim(3);
    uint32_t planes = n * c;
    uint32_t hw = h * w;

    uint32_t ppt = MAX_IN_ELEMS / hw;
    if (ppt == 0) {
        ppt = 1;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores > planes) {
        cores = planes;
    }
    if (cores == 0) {
        cores = 1;
    }

    Lenet5CustomTilingData td;
    td.set_planes(planes);
    td.set_height(h);
    td.set_width(w);
    td.set_outHeight(h / 2);
    td.set_outWidth(w / 2);
    td.set_planesPerTile(ppt);
    td.set_coreNum(cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    *out = *in;
    out->SetDim(2, in->GetDim(2) / 2);
    out->SetDim(3, in->GetDim(3) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Lenet5Custom : public OpDef {
public:
    explicit Lenet5Custom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Lenet5Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

// Fused ReLU + MaxPool2d(kernel=2, stride=2) over NCHW conv output.
// relu(max(window)) == max(relu(window)), so the ReLU runs on the 4x smaller pooled tile.
// The 2x2 window is collected with Gather: one byte-offset table pointing at the top-left
// element of every window, shifted by +4, +W*4 and +W*4+4 for the other three corners.
constexpr int32_t BUFS = 2;

__aicore__ inline uint32_t AlignUp8(uint32_t v) { return (v + 7) / 8 * 8; }

class KernelPoolRelu {
public:
    __aicore__ inline KernelPoolRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Lenet5CustomTilingData &td)
    {
        H = td.height; W = td.width; Ho = td.outHeight; Wo = td.outWidth;
        ppt = td.planesPerTile;

        // even split of planes over cores, first `rem` cores take one extra plane
        uint32_t idx = GetBlockIdx();
        uint32_t base = td.planes / td.coreNum;
        uint32_t rem = td.planes % td.coreNum;
        planeBegin = idx * base + (idx < rem ? idx : rem);
        planeCnt = base + (idx < rem ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x + (uint64_t)planeBegin * H * W);
        yGm.SetGlobalBuffer((__gm__ float *)y + (uint64_t)planeBegin * Ho * Wo);

        uint32_t inCap = AlignUp8(ppt * H * W);
        outCap = AlignUp8(ppt * Ho * Wo);
        pipe.InitBuffer(inQ, BUFS, inCap * sizeof(float));
        pipe.InitBuffer(outQ, BUFS, outCap * sizeof(float));
        pipe.InitBuffer(offBuf, outCap * sizeof(uint32_t));
        pipe.InitBuffer(offWorkBuf, outCap * sizeof(uint32_t));
        pipe.InitBuffer(tmpBufA, outCap * sizeof(float));
        pipe.InitBuffer(tmpBufB, outCap * sizeof(float));

        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < planeCnt; done += ppt) {
            uint32_t pc = (planeCnt - done) < ppt ? (planeCnt - done) : ppt;
            CopyIn(done, pc);
            Compute(pc);
            CopyOut(done, pc);
        }
    }

private:
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        uint32_t k = 0;
        for (uint32_t p = 0; p < ppt; ++p) {
            for (uint32_t i = 0; i < Ho; ++i) {
                uint32_t rowBase = (p * H + 2 * i) * W;
                for (uint32_t j = 0; j < Wo; ++j) {
                    off.SetValue(k++, (rowBase + 2 * j) * sizeof(float));
                }
            }
        }
        for (; k < outCap; ++k) {
            off.SetValue(k, 0);
        }
        // scalar writes must land before the vector unit reads the table
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void CopyIn(uint32_t done, uint32_t pc)
    {
        LocalTensor<float> in = inQ.AllocTensor<float>();
        uint32_t len = pc * H * W;
        DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(in, xGm[(uint64_t)done * H * W], cp, pad);
        inQ.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t pc)
    {
        LocalTensor<float> in = inQ.DeQue<float>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<uint32_t> offW = offWorkBuf.Get<uint32_t>();
        LocalTensor<int32_t> offI = off.ReinterpretCast<int32_t>();
        LocalTensor<int32_t> offWI = offW.ReinterpretCast<int32_t>();
        LocalTensor<float> a = tmpBufA.Get<float>();
        LocalTensor<float> b = tmpBufB.Get<float>();
        uint32_t n = pc * Ho * Wo;
        int32_t rowBytes = static_cast<int32_t>(W * sizeof(float));

        Gather(a, in, off, 0, n);                    // top-left
        Adds(offWI, offI, 4, n);
        PipeBarrier<PIPE_V>();
        Gather(b, in, offW, 0, n);                   // top-right
        Max(a, a, b, n);
        Adds(offWI, offI, rowBytes, n);
        PipeBarrier<PIPE_V>();
        Gather(b, in, offW, 0, n);                   // bottom-left
        Max(a, a, b, n);
        Adds(offWI, offI, rowBytes + 4, n);
        PipeBarrier<PIPE_V>();
        Gather(b, in, offW, 0, n);                   // bottom-right
        Max(out, a, b, n);
        Relu(out, out, n);

        outQ.EnQue(out);
        inQ.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint32_t done, uint32_t pc)
    {
        LocalTensor<float> out = outQ.DeQue<float>();
        uint32_t len = pc * Ho * Wo;
        DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)done * Ho * Wo], out, cp);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFS> inQ;
    TQue<QuePosition::VECOUT, BUFS> outQ;
    TBuf<TPosition::VECCALC> offBuf, offWorkBuf, tmpBufA, tmpBufB;
    GlobalTensor<float> xGm, yGm;
    uint32_t H = 0, W = 0, Ho = 0, Wo = 0, ppt = 1, outCap = 8;
    uint32_t planeBegin = 0, planeCnt = 0;
};

extern "C" __global__ __aicore__ void lenet5_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelPoolRelu op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// relu + 2x2/2 max pool in one kernel
at::Tensor lenet5_custom_impl_npu(const at::Tensor& x)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty({x.size(0), x.size(1), x.size(2) / 2, x.size(3) / 2}, x.options());
    EXEC_NPU_CMD(aclnnLenet5Custom, xc, y);
    return y;
}

// Whole LeNet-5 forward: convolutions and the small FC head stay on the stock NPU kernels,
// the activation + pooling stages use the fused custom op.
at::Tensor lenet5_forward(const at::Tensor& x,
                          const at::Tensor& c1w, const at::Tensor& c1b,
                          const at::Tensor& c2w, const at::Tensor& c2b,
                          const at::Tensor& f1w, const at::Tensor& f1b,
                          const at::Tensor& f2w, const at::Tensor& f2b,
                          const at::Tensor& f3w, const at::Tensor& f3b)
{
    at::Tensor h = at::conv2d(x, c1w, c1b);
    h = lenet5_custom_impl_npu(h);
    h = at::conv2d(h, c2w, c2b);
    h = lenet5_custom_impl_npu(h);
    h = h.reshape({-1, 16 * 5 * 5});
    h = at::relu(at::linear(h, f1w, f1b));
    h = at::relu(at::linear(h, f2w, f2b));
    return at::linear(h, f3w, f3b);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("lenet5_custom", &lenet5_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("lenet5_custom", &lenet5_custom_impl_npu, "relu + maxpool2x2");
    m.def("lenet5_forward", &lenet5_forward, "LeNet-5 forward");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, num_classes):
        super(ModelNew, self).__init__()
        self.conv1 = nn.Conv2d(in_channels=1, out_channels=6, kernel_size=5, stride=1)
        self.conv2 = nn.Conv2d(in_channels=6, out_channels=16, kernel_size=5, stride=1)
        self.fc1 = nn.Linear(in_features=16 * 5 * 5, out_features=120)
        self.fc2 = nn.Linear(in_features=120, out_features=84)
        self.fc3 = nn.Linear(in_features=84, out_features=num_classes)

    def forward(self, x):
        return custom_ops_lib.lenet5_forward(
            x,
            self.conv1.weight, self.conv1.bias,
            self.conv2.weight, self.conv2.bias,
            self.fc1.weight, self.fc1.bias,
            self.fc2.weight, self.fc2.bias,
            self.fc3.weight, self.fc3.bias)
'''
