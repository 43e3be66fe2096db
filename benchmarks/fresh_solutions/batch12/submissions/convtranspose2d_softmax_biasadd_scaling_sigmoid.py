project_json_src='''
[
    {
        "op": "Convtranspose2dSoftmaxBiasaddScalingSigmoidCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
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
            {"name": "scaling_factor", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Convtranspose2dSoftmaxBiasaddScalingSigmoidCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);     // softmax axis length
  TILING_DATA_FIELD_DEF(uint32_t, hw);           // spatial size of one channel plane
  TILING_DATA_FIELD_DEF(uint32_t, tileHw);       // spatial columns per tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tilesTail);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Convtranspose2dSoftmaxBiasaddScalingSigmoidCustom,
                           Convtranspose2dSoftmaxBiasaddScalingSigmoidCustomTilingData)
}
"""

host_operator_src="""
#include "convtranspose2d_softmax_biasadd_scaling_sigmoid_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB budget for the [C][tileHw] slabs: 2 in + 2 out buffers
constexpr uint32_t SLAB_BYTES = 36 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Convtranspose2dSoftmaxBiasaddScalingSigmoidCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t hw = static_cast<uint32_t>(shape.GetDim(2) * shape.GetDim(3));
    float scale = *context->GetAttrs()->GetAttrPointer<float>(0);

    uint32_t tileHw = SLAB_BYTES / (c * sizeof(float));
    tileHw = tileHw / 8 * 8;
    if (tileHw == 0) {
        return ge::GRAPH_FAILED;  // too many channels for one slab
    }
    uint32_t hwAlign = (hw + 7) / 8 * 8;
    if (tileHw > hwAlign) tileHw = hwAlign;

    uint32_t tilesPerImage = (hw + tileHw - 1) / tileHw;
    uint32_t totalTiles = n * tilesPerImage;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > totalTiles) cores = totalTiles;
    if (cores == 0) cores = 1;

    tiling.set_channels(c);
    tiling.set_hw(hw);
    tiling.set_tileHw(tileHw);
    tiling.set_tilesPerImage(tilesPerImage);
    tiling.set_tilesPerCore(totalTiles / cores);
    tiling.set_tilesTail(totalTiles % cores);
    tiling.set_scale(scale);

    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Convtranspose2dSoftmaxBiasaddScalingSigmoidCustom : public OpDef {
public:
    explicit Convtranspose2dSoftmaxBiasaddScalingSigmoidCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scaling_factor").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Convtranspose2dSoftmaxBiasaddScalingSigmoidCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Softmax over channels + bias + scale + sigmoid on the conv-transpose output (N, C, H*W).
// A tile is a [C][tileHw] slab of one image (C strided rows of tileHw contiguous floats),
// so the channel-wise softmax becomes row-by-row elementwise vector ops:
//   m = max_c x_c ; e_c = exp(x_c - m) ; s = sum_c e_c
//   y_c = sigmoid(scale * (e_c / s + b_c)) = 1 / (1 + exp(e_c * (-scale / s) - scale * b_c))
class KernelSoftmaxBiasScaleSigmoid {
public:
    __aicore__ inline KernelSoftmaxBiasScaleSigmoid() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                const Convtranspose2dSoftmaxBiasaddScalingSigmoidCustomTilingData& td)
    {
        C = td.channels;
        HW = td.hw;
        T = td.tileHw;
        tilesPerImage = td.tilesPerImage;
        scale = td.scale;

        uint32_t bid = GetBlockIdx();
        tileCnt = td.tilesPerCore + (bid < td.tilesTail ? 1 : 0);
        tileBeg = bid * td.tilesPerCore + (bid < td.tilesTail ? bid : td.tilesTail);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, C);

        pipe.InitBuffer(inQue, BUFFER_NUM, C * T * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, C * T * sizeof(float));
        pipe.InitBuffer(maxBuf, T * sizeof(float));
        pipe.InitBuffer(sumBuf, T * sizeof(float));
        pipe.InitBuffer(biasBuf, ((C + 7) / 8 * 8) * sizeof(float));

        // bias is tiny: keep it in UB, pre-multiplied by -scale
        LocalTensor<float> b = biasBuf.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(C * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(b, biasGm, cp, pad);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = tileBeg; t < tileBeg + tileCnt; ++t) {
            uint32_t img = t / tilesPerImage;
            uint32_t col = (t % tilesPerImage) * T;
            uint32_t len = (HW - col) < T ? (HW - col) : T;
            uint64_t gmOff = static_cast<uint64_t>(img) * C * HW + col;
            CopyIn(gmOff, len);
            Compute(len);
            CopyOut(gmOff, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> slab = inQue.AllocTensor<float>();
        uint32_t rowBlocks = T / 8;
        uint32_t usedBlocks = (len + 7) / 8;
        DataCopyExtParams cp{static_cast<uint16_t>(C), static_cast<uint32_t>(len * sizeof(float)),
                             static_cast<uint32_t>((HW - len) * sizeof(float)),
                             static_cast<uint32_t>(rowBlocks - usedBlocks), 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(slab, xGm[gmOff], cp, pad);
        inQue.EnQue(slab);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xs = inQue.DeQue<float>();
        LocalTensor<float> ys = outQue.AllocTensor<float>();
        LocalTensor<float> mx = maxBuf.Get<float>();
        LocalTensor<float> sm = sumBuf.Get<float>();
        LocalTensor<float> bl = biasBuf.Get<float>();
        uint32_t n = (len + 7) / 8 * 8;

        // channel max
        DataCopy(mx, xs, n);
        for (uint32_t c = 1; c < C; ++c) {
            Max(mx, mx, xs[c * T], n);
        }
        // exponentials and their sum
        Duplicate(sm, 0.0f, n);
        for (uint32_t c = 0; c < C; ++c) {
            LocalTensor<float> row = xs[c * T];
            Sub(row, row, mx, n);
            Exp(row, row, n);
            Add(sm, sm, row, n);
        }
        // sm <- -scale / sum
        Reciprocal(sm, sm, n);
        Muls(sm, sm, -scale, n);

        for (uint32_t c = 0; c < C; ++c) {
            LocalTensor<float> row = xs[c * T];
            LocalTensor<float> o = ys[c * T];
            float negScaledBias = -scale * bl.GetValue(c);
            Mul(o, row, sm, n);
            Adds(o, o, negScaledBias, n);
            Exp(o, o, n);
            Adds(o, o, 1.0f, n);
            Reciprocal(o, o, n);
        }

        outQue.EnQue<float>(ys);
        inQue.FreeTensor(xs);
    }

    __aicore__ inline void CopyOut(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> ys = outQue.DeQue<float>();
        uint32_t rowBlocks = T / 8;
        uint32_t usedBlocks = (len + 7) / 8;
        DataCopyExtParams cp{static_cast<uint16_t>(C), static_cast<uint32_t>(len * sizeof(float)),
                             static_cast<uint32_t>(rowBlocks - usedBlocks),
                             static_cast<uint32_t>((HW - len) * sizeof(float)), 0};
        DataCopyPad(yGm[gmOff], ys, cp);
        outQue.FreeTensor(ys);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<QuePosition::VECCALC> maxBuf, sumBuf, biasBuf;
    GlobalTensor<float> xGm, yGm, biasGm;
    uint32_t C, HW, T, tilesPerImage;
    uint32_t tileBeg, tileCnt;
    float scale;
};

extern "C" __global__ __aicore__ void convtranspose2d_softmax_biasadd_scaling_sigmoid_custom(
    GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSoftmaxBiasScaleSigmoid op;
    op.Init(x, bias, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor convtranspose2d_softmax_biasadd_scaling_sigmoid_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& conv_bias, const at::Tensor& bias,
    int64_t stride, int64_t padding, int64_t output_padding, double scaling_factor)
{
    // transposed convolution on aten, everything after it in one custom kernel
    at::Tensor conv = at::conv_transpose2d(x, weight, conv_bias, {stride, stride}, {padding, padding},
                                           {output_padding, output_padding}).contiguous();
    at::Tensor b = bias.reshape({-1}).contiguous();
    at::Tensor result = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConvtranspose2dSoftmaxBiasaddScalingSigmoidCustom, conv, b, scaling_factor, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("convtranspose2d_softmax_biasadd_scaling_sigmoid_custom",
           &convtranspose2d_softmax_biasadd_scaling_sigmoid_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("convtranspose2d_softmax_biasadd_scaling_sigmoid_custom",
          &convtranspose2d_softmax_biasadd_scaling_sigmoid_custom_impl_npu,
          "conv_transpose2d -> softmax(dim=1) -> +bias -> *scale -> sigmoid");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, bias_shape, scaling_factor):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                                 padding=padding, output_padding=output_padding)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.scaling_factor = scaling_factor
        self.stride = stride
        self.padding = padding
        self.output_padding = output_padding

    def forward(self, x):
        return custom_ops_lib.convtranspose2d_softmax_biasadd_scaling_sigmoid_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias, self.bias,
            self.stride, self.padding, self.output_padding, self.scaling_factor)
'''
