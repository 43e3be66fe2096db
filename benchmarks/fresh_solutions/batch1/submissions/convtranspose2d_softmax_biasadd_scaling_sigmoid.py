project_json_src='''
[
    {
        "op": "Convtranspose2dSoftmaxBiasaddScalingSigmoidCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
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
  TILING_DATA_FIELD_DEF(uint32_t, C);
  TILING_DATA_FIELD_DEF(uint32_t, HW);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // spatial columns per tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerImg);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(float, scaling);
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
// one [C x colTile] fp32 block should stay around 16KB so that input and
// output can both be double buffered next to the Sigmoid scratch space
constexpr uint32_t BLOCK_BYTES = 16384;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Convtranspose2dSoftmaxBiasaddScalingSigmoidCustomTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    const uint32_t N = s.GetDim(0);
    const uint32_t C = s.GetDim(1);
    const uint32_t HW = s.GetDim(2) * s.GetDim(3);

    uint32_t colTile = BLOCK_BYTES / (C * sizeof(float));
    colTile = (colTile / 8) * 8;
    if (colTile < 8) colTile = 8;
    const uint32_t hwAligned = (HW + 7) / 8 * 8;
    if (colTile > hwAligned) colTile = hwAligned;

    const uint32_t tilesPerImg = (HW + colTile - 1) / colTile;
    const uint32_t totalTiles = N * tilesPerImg;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blockDim = plat.GetCoreNumAiv();
    if (blockDim > totalTiles) blockDim = totalTiles;
    if (blockDim == 0) blockDim = 1;

    td.set_C(C);
    td.set_HW(HW);
    td.set_colTile(colTile);
    td.set_tilesPerImg(tilesPerImg);
    td.set_totalTiles(totalTiles);
    td.set_scaling(*context->GetAttrs()->GetFloat(0));

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
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scaling_factor").AttrType(REQUIRED).Float();

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

namespace {
constexpr int32_t DB = 2;
}

// y = sigmoid( (softmax_c(x) + bias[c]) * s )
//   = sigmoid( softmax_c(x) * s + bias[c] * s )
// Work unit: image n, columns [col0, col0 + colTile) for all C channels.
// Tiles are handed out round-robin: core i takes tiles i, i + blockNum, ...
class KernelCt2dSoftmaxBiasScaleSigmoid {
public:
    __aicore__ inline KernelCt2dSoftmaxBiasScaleSigmoid() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                const Convtranspose2dSoftmaxBiasaddScalingSigmoidCustomTilingData& td)
    {
        C_ = td.C;
        HW_ = td.HW;
        T_ = td.colTile;
        tilesPerImg_ = td.tilesPerImg;
        totalTiles_ = td.totalTiles;
        s_ = td.scaling;

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        yGm_.SetGlobalBuffer((__gm__ float*)y);
        bGm_.SetGlobalBuffer((__gm__ float*)bias, C_);

        const uint32_t blockElems = C_ * T_;
        pipe_.InitBuffer(qIn_, DB, blockElems * sizeof(float));
        pipe_.InitBuffer(qOut_, DB, blockElems * sizeof(float));
        pipe_.InitBuffer(colMax_, T_ * sizeof(float));
        pipe_.InitBuffer(colSum_, T_ * sizeof(float));
        pipe_.InitBuffer(biasBuf_, ((C_ + 7) / 8 * 8) * sizeof(float));

        // bias * s is needed per channel row, keep it in UB
        LocalTensor<float> bl = biasBuf_.Get<float>();
        DataCopyExtParams cp{1, C_ * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(bl, bGm_, cp, pad);
        event_t evMte2V = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(evMte2V);
        WaitFlag<HardEvent::MTE2_V>(evMte2V);
        Muls(bl, bl, s_, (C_ + 7) / 8 * 8);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = GetBlockIdx(); t < totalTiles_; t += GetBlockNum()) {
            const uint32_t n = t / tilesPerImg_;
            const uint32_t col0 = (t % tilesPerImg_) * T_;
            const uint32_t cols = (HW_ - col0) < T_ ? (HW_ - col0) : T_;
            const uint64_t gmOff = (uint64_t)n * C_ * HW_ + col0;
            Load(gmOff, cols);
            Calc(cols);
            Store(gmOff, cols);
        }
    }

private:
    // C rows of `cols` floats, GM row pitch HW_, UB row pitch T_
    __aicore__ inline DataCopyExtParams RowParams(uint32_t cols, bool toGm)
    {
        const uint32_t colsAligned = (cols + 7) / 8 * 8;
        const uint32_t gmGap = (HW_ - cols) * sizeof(float);           // bytes
        const uint32_t ubGap = (T_ - colsAligned) / 8;                  // 32B blocks
        if (toGm) {
            return DataCopyExtParams{(uint16_t)C_, cols * (uint32_t)sizeof(float), ubGap, gmGap, 0};
        }
        return DataCopyExtParams{(uint16_t)C_, cols * (uint32_t)sizeof(float), gmGap, ubGap, 0};
    }

    __aicore__ inline void Load(uint64_t gmOff, uint32_t cols)
    {
        LocalTensor<float> blk = qIn_.AllocTensor<float>();
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(blk, xGm_[gmOff], RowParams(cols, false), pad);
        qIn_.EnQue(blk);
    }

    __aicore__ inline void Calc(uint32_t cols)
    {
        LocalTensor<float> in = qIn_.DeQue<float>();
        LocalTensor<float> out = qOut_.AllocTensor<float>();
        LocalTensor<float> mx = colMax_.Get<float>();
        LocalTensor<float> sum = colSum_.Get<float>();
        LocalTensor<float> bs = biasBuf_.Get<float>();
        const uint32_t w = (cols + 7) / 8 * 8;

        // column max over the channel rows
        DataCopy(mx, in, w);
        for (uint32_t c = 1; c < C_; ++c) {
            Max(mx, mx, in[c * T_], w);
        }
        // exp(x - max), in place on the input block
        for (uint32_t c = 0; c < C_; ++c) {
            Sub(in[c * T_], in[c * T_], mx, w);
        }
        Exp(in, in, C_ * T_);

        DataCopy(sum, in, w);
        for (uint32_t c = 1; c < C_; ++c) {
            Add(sum, sum, in[c * T_], w);
        }
        // sum <- s / sum, so a single Mul gives softmax * s
        Reciprocal(sum, sum, w);
        Muls(sum, sum, s_, w);

        for (uint32_t c = 0; c < C_; ++c) {
            Mul(in[c * T_], in[c * T_], sum, w);
            Adds(in[c * T_], in[c * T_], bs.GetValue(c), w);
        }
        // sigmoid is elementwise: one call over the whole block, straight into the output
        Sigmoid(out, in, C_ * T_);
        qIn_.FreeTensor(in);
        qOut_.EnQue(out);
    }

    __aicore__ inline void Store(uint64_t gmOff, uint32_t cols)
    {
        LocalTensor<float> out = qOut_.DeQue<float>();
        DataCopyPad(yGm_[gmOff], out, RowParams(cols, true));
        qOut_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, DB> qIn_;
    TQue<QuePosition::VECOUT, DB> qOut_;
    TBuf<QuePosition::VECCALC> colMax_, colSum_, biasBuf_;
    GlobalTensor<float> xGm_, yGm_, bGm_;
    uint32_t C_ = 0, HW_ = 0, T_ = 0, tilesPerImg_ = 0, totalTiles_ = 0;
    float s_ = 1.0f;
};

extern "C" __global__ __aicore__ void convtranspose2d_softmax_biasadd_scaling_sigmoid_custom(
    GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelCt2dSoftmaxBiasScaleSigmoid op;
    op.Init(x, bias, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor convtranspose2d_softmax_biasadd_scaling_sigmoid_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& conv_bias,
    int64_t stride, int64_t padding, int64_t output_padding,
    const at::Tensor& bias, double scaling_factor)
{
    at::Tensor conv = at::conv_transpose2d(x, weight, conv_bias, {stride, stride}, {padding, padding},
                                           {output_padding, output_padding}).contiguous();
    at::Tensor b = bias.reshape({-1}).contiguous();
    at::Tensor out = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConvtranspose2dSoftmaxBiasaddScalingSigmoidCustom, conv, b, scaling_factor, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("convtranspose2d_softmax_biasadd_scaling_sigmoid_custom",
           &convtranspose2d_softmax_biasadd_scaling_sigmoid_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("convtranspose2d_softmax_biasadd_scaling_sigmoid_custom",
          &convtranspose2d_softmax_biasadd_scaling_sigmoid_custom_impl_npu,
          "conv_transpose2d + channel softmax + bias + scale + sigmoid");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding,
                 bias_shape, scaling_factor):
        super().__init__()
        self.conv_transpose = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                                       padding=padding, output_padding=output_padding)
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))
        self.scaling_factor = scaling_factor
        self.stride = stride
        self.padding = padding
        self.output_padding = output_padding

    def forward(self, x):
        return custom_ops_lib.convtranspose2d_softmax_biasadd_scaling_sigmoid_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias,
            self.stride, self.padding, self.output_padding, self.bias, self.scaling_factor)
'''
