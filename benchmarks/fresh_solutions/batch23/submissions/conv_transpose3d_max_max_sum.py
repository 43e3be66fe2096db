project_json_src='''
[
    {
        "op": "ConvTranspose3dMaxMaxSumCustom",
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
BEGIN_TILING_DATA_DEF(ConvTranspose3dMaxMaxSumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, win);          // effective window = pool1 * pool2
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);    // UB row pitch (inW rounded up to 8)
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);   // N * outD
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dMaxMaxSumCustom, ConvTranspose3dMaxMaxSumCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_max_max_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// MaxPool3d(2) followed by MaxPool3d(3): both non-overlapping with floor rounding, so the
// pair equals one 6x6x6 / stride-6 max over the region actually covered.
constexpr uint32_t POOL1 = 2;
constexpr uint32_t POOL2 = 3;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape &s = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0);
    uint32_t c = s.GetDim(1);
    uint32_t d = s.GetDim(2), h = s.GetDim(3), w = s.GetDim(4);
    uint32_t od = (d / POOL1) / POOL2;
    uint32_t oh = (h / POOL1) / POOL2;
    uint32_t ow = (w / POOL1) / POOL2;

    ConvTranspose3dMaxMaxSumCustomTilingData tiling;
    tiling.set_channels(c);
    tiling.set_inD(d);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outD(od);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_win(POOL1 * POOL2);
    tiling.set_rowStride((w + 7) / 8 * 8);

    uint32_t units = n * od;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > units) cores = units;
    if (cores == 0) cores = 1;
    uint32_t per = (units + cores - 1) / cores;
    tiling.set_totalUnits(units);
    tiling.set_unitsPerCore(per);
    context->SetBlockDim((units + per - 1) / per);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, 1);
    for (int i = 2; i < 5; ++i) {
        ys->SetDim(i, (xs->GetDim(i) / 2) / 3);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dMaxMaxSumCustom : public OpDef {
public:
    explicit ConvTranspose3dMaxMaxSumCustom(const char* name) : OpDef(name)
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
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dMaxMaxSumCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

// Input is the conv_transpose3d output (N, C, D, H, W).
// Unit of work = (n, od): produce y[n, 0, od, :, :] = sum_c max over the win^3 blocks.
// Per channel the win depth-slices (only the covered outH*win rows, each padded to a
// 32B pitch) are loaded at once, reduced over depth and rows with vector Max, and the
// last win-wide max over W is done on the scalar unit.
class KernelMaxMaxSum {
public:
    __aicore__ inline KernelMaxMaxSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ConvTranspose3dMaxMaxSumCustomTilingData &t)
    {
        C = t.channels; D = t.inD; H = t.inH; W = t.inW;
        oD = t.outD; oH = t.outH; oW = t.outW;
        win = t.win; pitch = t.rowStride;
        rows = oH * win;
        sliceElems = rows * pitch;

        begin = AscendC::GetBlockIdx() * t.unitsPerCore;
        end = begin + t.unitsPerCore;
        if (end > t.totalUnits) end = t.totalUnits;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(inQ, 1, win * sliceElems * sizeof(float));
        pipe.InitBuffer(rowMaxBuf, oH * pitch * sizeof(float));
        pipe.InitBuffer(outQ, 1, ((oH * oW + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = begin; u < end; ++u) {
            uint32_t n = u / oD;
            uint32_t od = u % oD;
            AscendC::LocalTensor<float> acc = outQ.AllocTensor<float>();
            for (uint32_t i = 0; i < oH * oW; ++i) {
                acc.SetValue(i, 0.0f);
            }
            for (uint32_t c = 0; c < C; ++c) {
                LoadSlab(n, c, od);
                ReduceSlab(acc);
            }
            outQ.EnQue(acc);
            Store(n, od);
        }
    }

private:
    __aicore__ inline void LoadSlab(uint32_t n, uint32_t c, uint32_t od)
    {
        AscendC::LocalTensor<float> slab = inQ.AllocTensor<float>();
        // rows [0, rows) of each depth slice, W floats each; UB rows padded to `pitch`
        AscendC::DataCopyExtParams cp{(uint16_t)rows, (uint32_t)(W * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint64_t chanBase = ((uint64_t)n * C + c) * D * H * W;
        for (uint32_t dz = 0; dz < win; ++dz) {
            uint64_t src = chanBase + (uint64_t)(od * win + dz) * H * W;
            AscendC::DataCopyPad(slab[dz * sliceElems], xGm[src], cp, pad);
        }
        inQ.EnQue(slab);
    }

    __aicore__ inline void ReduceSlab(AscendC::LocalTensor<float> &acc)
    {
        AscendC::LocalTensor<float> slab = inQ.DeQue<float>();
        AscendC::LocalTensor<float> rmax = rowMaxBuf.Get<float>();

        // depth: fold slices 1..win-1 into slice 0
        for (uint32_t dz = 1; dz < win; ++dz) {
            AscendC::Max(slab, slab, slab[dz * sliceElems], sliceElems);
            AscendC::PipeBarrier<PIPE_V>();
        }
        // height: fold each group of `win` rows
        for (uint32_t oh = 0; oh < oH; ++oh) {
            AscendC::LocalTensor<float> dst = rmax[oh * pitch];
            uint32_t r0 = oh * win;
            AscendC::Max(dst, slab[r0 * pitch], slab[(r0 + 1) * pitch], pitch);
            AscendC::PipeBarrier<PIPE_V>();
            for (uint32_t r = 2; r < win; ++r) {
                AscendC::Max(dst, dst, slab[(r0 + r) * pitch], pitch);
                AscendC::PipeBarrier<PIPE_V>();
            }
        }
        // the scalar unit reads rmax next
        event_t e = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(e);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(e);

        // width: win-wide max, then add into the channel sum
        for (uint32_t oh = 0; oh < oH; ++oh) {
            for (uint32_t ow = 0; ow < oW; ++ow) {
                uint32_t base = oh * pitch + ow * win;
                float m = rmax.GetValue(base);
                for (uint32_t k = 1; k < win; ++k) {
                    float v = rmax.GetValue(base + k);
                    m = (v > m) ? v : m;
                }
                uint32_t idx = oh * oW + ow;
                acc.SetValue(idx, acc.GetValue(idx) + m);
            }
        }
        inQ.FreeTensor(slab);
    }

    __aicore__ inline void Store(uint32_t n, uint32_t od)
    {
        AscendC::LocalTensor<float> acc = outQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)(oH * oW * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[((uint64_t)n * oD + od) * oH * oW], acc, cp);
        outQ.FreeTensor(acc);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowMaxBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t C, D, H, W, oD, oH, oW, win, pitch, rows, sliceElems;
    uint32_t begin, end;
};

extern "C" __global__ __aicore__ void conv_transpose3d_max_max_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelMaxMaxSum op;
    op.Init(x, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_max_max_sum_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                       const at::Tensor& bias, int64_t stride, int64_t padding)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, bias, {stride, stride, stride},
                                           {padding, padding, padding}).contiguous();
    at::Tensor y = at::empty({conv.size(0), 1, (conv.size(2) / 2) / 3, (conv.size(3) / 2) / 3,
                              (conv.size(4) / 2) / 3}, conv.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dMaxMaxSumCustom, conv, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_max_max_sum_custom", &conv_transpose3d_max_max_sum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_max_max_sum_custom", &conv_transpose3d_max_max_sum_custom_impl_npu,
          "conv_transpose3d -> maxpool(2) -> maxpool(3) -> sum over channels");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)
        self.stride = stride
        self.padding = padding

    def forward(self, x):
        return custom_ops_lib.conv_transpose3d_max_max_sum_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias, self.stride, self.padding)
'''
