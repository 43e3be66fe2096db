project_json_src='''
[
    {
        "op": "AveragePooling2dCustom",
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
        ],
        "attr": [
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AveragePooling2dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, widthAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, padHead);     // zero floats in front of the row sum (>= pad, 8-aligned)
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(float, invArea);        // 1 / (k*k), count_include_pad semantics
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AveragePooling2dCustom, AveragePooling2dCustomTilingData)
}
"""

host_operator_src="""
#include "average_pooling2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Align8(uint32_t v) { return (v + 7) & ~7U; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AveragePooling2dCustomTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    if (s.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    uint32_t k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    const int64_t* stridePtr = attrs->GetAttrPointer<int64_t>(1);
    const int64_t* padPtr = attrs->GetAttrPointer<int64_t>(2);
    uint32_t stride = (stridePtr == nullptr || *stridePtr <= 0) ? k : static_cast<uint32_t>(*stridePtr);
    uint32_t pad = (padPtr == nullptr) ? 0 : static_cast<uint32_t>(*padPtr);

    uint32_t planes = s.GetDim(0) * s.GetDim(1);
    uint32_t h = s.GetDim(2);
    uint32_t w = s.GetDim(3);
    uint32_t oh = (h + 2 * pad - k) / stride + 1;
    uint32_t ow = (w + 2 * pad - k) / stride + 1;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > planes) cores = planes;
    uint32_t perCore = (planes + cores - 1) / cores;
    uint32_t blockDim = (planes + perCore - 1) / perCore;

    td.set_planes(planes);
    td.set_height(h);
    td.set_width(w);
    td.set_widthAlign(Align8(w));
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_outWAlign(Align8(ow));
    td.set_kernel(k);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_padHead(Align8(pad));
    td.set_planesPerCore(perCore);
    td.set_invArea(1.0f / static_cast<float>(k * k));

    context->SetBlockDim(blockDim);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    auto attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t* sp = attrs->GetAttrPointer<int64_t>(1);
    const int64_t* pp = attrs->GetAttrPointer<int64_t>(2);
    int64_t stride = (sp == nullptr || *sp <= 0) ? k : *sp;
    int64_t pad = (pp == nullptr) ? 0 : *pp;
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, (xs->GetDim(2) + 2 * pad - k) / stride + 1);
    ys->SetDim(3, (xs->GetDim(3) + 2 * pad - k) / stride + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AveragePooling2dCustom : public OpDef {
public:
    explicit AveragePooling2dCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("kernel_size").Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(0);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AveragePooling2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// AvgPool2d, one (n, c) plane per iteration.
// For each output row the k input rows of the window are copied in with a single
// DataCopyPad (they are contiguous in GM), summed vertically with Add, and the
// horizontal window sum is then formed by k Gathers (column ow*stride + kw - pad)
// out of a zero-padded copy of the row sum.  Out-of-range columns read zeros,
// which together with the fixed 1/(k*k) factor gives count_include_pad=True.
constexpr int32_t IN_BUFS = 2;

class KernelAvgPool2d {
public:
    __aicore__ inline KernelAvgPool2d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AveragePooling2dCustomTilingData& td)
    {
        H = td.height; W = td.width; WA = td.widthAlign;
        OH = td.outH; OW = td.outW; OWA = td.outWAlign;
        K = td.kernel; S = td.stride; P = td.pad; head = td.padHead;
        scale = td.invArea;

        planeBegin = GetBlockIdx() * td.planesPerCore;
        planeEnd = planeBegin + td.planesPerCore;
        if (planeEnd > td.planes) planeEnd = td.planes;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.planes * H * W);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.planes * OH * OW);

        rowSumLen = head + WA + head + 8;  // zeros | row sum | zeros
        pipe.InitBuffer(inQ, IN_BUFS, K * WA * sizeof(float));
        pipe.InitBuffer(outQ, 1, OH * OWA * sizeof(float));
        pipe.InitBuffer(rowSumBuf, rowSumLen * sizeof(float));
        pipe.InitBuffer(gatherBuf, OWA * sizeof(float));
        pipe.InitBuffer(offBuf, K * OWA * sizeof(uint32_t));
    }

    __aicore__ inline void Process()
    {
        if (planeBegin >= planeEnd) return;
        PrepareOffsets();
        for (uint32_t p = planeBegin; p < planeEnd; ++p) {
            PoolPlane(p);
        }
    }

private:
    __aicore__ inline void PrepareOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < K; ++kw) {
            for (uint32_t ow = 0; ow < OW; ++ow) {
                // position inside rowSumBuf; head >= P so this never underflows
                uint32_t pos = head + ow * S + kw - P;
                off.SetValue(kw * OWA + ow, pos * (uint32_t)sizeof(float));
            }
            for (uint32_t ow = OW; ow < OWA; ++ow) {
                off.SetValue(kw * OWA + ow, 0U);
            }
        }
        LocalTensor<float> rs = rowSumBuf.Get<float>();
        Duplicate(rs, 0.0f, rowSumLen);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void PoolPlane(uint32_t plane)
    {
        LocalTensor<float> outLocal = outQ.AllocTensor<float>();
        LocalTensor<float> rs = rowSumBuf.Get<float>();
        LocalTensor<float> rowSum = rs[head];
        LocalTensor<float> g = gatherBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        uint64_t planeBase = (uint64_t)plane * H * W;

        for (uint32_t oh = 0; oh < OH; ++oh) {
            int32_t hs = (int32_t)(oh * S) - (int32_t)P;
            int32_t he = hs + (int32_t)K;
            if (hs < 0) hs = 0;
            if (he > (int32_t)H) he = (int32_t)H;
            uint32_t rows = (uint32_t)(he - hs);

            // load rows [hs, he) of this plane, each padded to WA in UB
            LocalTensor<float> win = inQ.AllocTensor<float>();
            DataCopyExtParams cp{(uint16_t)rows, W * (uint32_t)sizeof(float), 0, 0, 0};
            DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
            DataCopyPad(win, xGm[planeBase + (uint64_t)hs * W], cp, pp);
            inQ.EnQue(win);
            win = inQ.DeQue<float>();

            // vertical sum
            if (rows == 1) {
                Adds(rowSum, win, 0.0f, W);
            } else {
                Add(rowSum, win, win[WA], W);
                for (uint32_t r = 2; r < rows; ++r) {
                    PipeBarrier<PIPE_V>();
                    Add(rowSum, rowSum, win[r * WA], W);
                }
            }
            inQ.FreeTensor(win);
            PipeBarrier<PIPE_V>();

            // horizontal sum: out[ow] = sum_kw rowSum[ow*S + kw - P]
            LocalTensor<float> dst = outLocal[oh * OWA];
            Gather(dst, rs, off, (uint32_t)0, OWA);
            for (uint32_t kw = 1; kw < K; ++kw) {
                Gather(g, rs, off[kw * OWA], (uint32_t)0, OWA);
                PipeBarrier<PIPE_V>();
                Add(dst, dst, g, OWA);
                PipeBarrier<PIPE_V>();
            }
            Muls(dst, dst, scale, OWA);
            PipeBarrier<PIPE_V>();
        }

        outQ.EnQue(outLocal);
        outLocal = outQ.DeQue<float>();
        // each UB row is OWA floats (32B padded); write OW floats per row
        DataCopyExtParams wp{(uint16_t)OH, OW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)plane * OH * OW], outLocal, wp);
        outQ.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, IN_BUFS> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> rowSumBuf, gatherBuf, offBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t H, W, WA, OH, OW, OWA, K, S, P, head, rowSumLen;
    uint32_t planeBegin, planeEnd;
    float scale;
};

extern "C" __global__ __aicore__ void average_pooling2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelAvgPool2d op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor average_pooling2d_custom_impl_npu(const at::Tensor& x, int64_t kernel_size, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 4, "average_pooling2d_custom expects NCHW input");
    int64_t s = stride > 0 ? stride : kernel_size;
    int64_t oh = (x.size(2) + 2 * padding - kernel_size) / s + 1;
    int64_t ow = (x.size(3) + 2 * padding - kernel_size) / s + 1;
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty({x.size(0), x.size(1), oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnAveragePooling2dCustom, xc, kernel_size, s, padding, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("average_pooling2d_custom", &average_pooling2d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("average_pooling2d_custom", &average_pooling2d_custom_impl_npu, "AvgPool2d (count_include_pad)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.average_pooling2d_custom(x, self.kernel_size, self.stride, self.padding)
'''
