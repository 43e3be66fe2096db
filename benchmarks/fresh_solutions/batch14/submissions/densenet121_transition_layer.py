project_json_src='''
[
    {
        "op": "Densenet121TransitionLayerCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "shift", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Densenet121TransitionLayerCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);   // output rows per chunk, divides outH
  TILING_DATA_FIELD_DEF(uint32_t, totalChunks);
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, chunkRemainder);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Densenet121TransitionLayerCustom, Densenet121TransitionLayerCustomTilingData)
}
"""

host_operator_src="""
#include "densenet121_transition_layer_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Densenet121TransitionLayerCustomTilingData td;
    auto s = context->GetInputShape(0)->GetOriginShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1), h = s.GetDim(2), w = s.GetDim(3);
    uint32_t oh = h / 2, ow = w / 2;

    // 2*R input rows of W floats per chunk, keep it around 32KB
    uint32_t r = 8192 / (2 * w);
    if (r == 0) r = 1;
    if (r > oh) r = oh;
    while (oh % r != 0) --r;
    // GatherMask works on 64-float repeats
    while (r > 1 && ((r * w) % 64) != 0) --r;

    uint32_t chunks = n * c * (oh / r);
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > chunks) cores = chunks;

    td.set_channels(c);
    td.set_inW(w);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_rowsPerChunk(r);
    td.set_totalChunks(chunks);
    td.set_chunksPerCore(chunks / cores);
    td.set_chunkRemainder(chunks % cores);

    context->SetBlockDim(cores);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(4);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, in->GetDim(1));
    out->SetDim(2, in->GetDim(2) / 2);
    out->SetDim(3, in->GetDim(3) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Densenet121TransitionLayerCustom : public OpDef {
public:
    explicit Densenet121TransitionLayerCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Densenet121TransitionLayerCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t DEPTH = 2;

// relu(x * scale[c] + shift[c]) followed by 2x2 average pooling.
// The 1x1 convolution is applied afterwards on the 4x smaller tensor: avgpool and a
// bias-free 1x1 conv are both linear per pixel, so their order can be swapped.
class TransitionBnReluPool {
public:
    __aicore__ inline TransitionBnReluPool() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const Densenet121TransitionLayerCustomTilingData& td)
    {
        C_ = td.channels;
        W_ = td.inW;
        OH_ = td.outH;
        OW_ = td.outW;
        R_ = td.rowsPerChunk;
        chunksPerPlane_ = OH_ / R_;

        uint32_t b = GetBlockIdx();
        myChunks_ = td.chunksPerCore + (b < td.chunkRemainder ? 1 : 0);
        firstChunk_ = b * td.chunksPerCore + (b < td.chunkRemainder ? b : td.chunkRemainder);

        uint64_t outTotal = (uint64_t)td.totalChunks * R_ * OW_;
        xGm_.SetGlobalBuffer((__gm__ float*)x, outTotal * 4);
        yGm_.SetGlobalBuffer((__gm__ float*)y, outTotal);
        scaleGm_.SetGlobalBuffer((__gm__ float*)scale, C_);
        shiftGm_.SetGlobalBuffer((__gm__ float*)shift, C_);

        inElems_ = 2 * R_ * W_;
        outElems_ = R_ * OW_;
        pipe_.InitBuffer(inQ_, DEPTH, inElems_ * sizeof(float));
        pipe_.InitBuffer(outQ_, DEPTH, outElems_ * sizeof(float));
        pipe_.InitBuffer(vsum_, R_ * W_ * sizeof(float));
        pipe_.InitBuffer(lanes_, 2 * outElems_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < myChunks_; ++k) {
            uint32_t chunk = firstChunk_ + k;
            uint32_t ch = (chunk / chunksPerPlane_) % C_;
            CopyIn(chunk);
            Compute(scaleGm_.GetValue(ch), shiftGm_.GetValue(ch));
            CopyOut(chunk);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t chunk)
    {
        // chunks never straddle planes, and input rows of a chunk are contiguous
        LocalTensor<float> xl = inQ_.AllocTensor<float>();
        DataCopy(xl, xGm_[(uint64_t)chunk * inElems_], inElems_);
        inQ_.EnQue(xl);
    }

    __aicore__ inline void Compute(float sc, float sh)
    {
        LocalTensor<float> xl = inQ_.DeQue<float>();
        LocalTensor<float> vs = vsum_.Get<float>();
        LocalTensor<float> ln = lanes_.Get<float>();
        LocalTensor<float> yl = outQ_.AllocTensor<float>();

        Muls(xl, xl, sc, inElems_);
        Adds(xl, xl, sh, inElems_);
        Relu(xl, xl, inElems_);

        // vertical pair sum
        for (uint32_t r = 0; r < R_; ++r) {
            Add(vs[r * W_], xl[2 * r * W_], xl[(2 * r + 1) * W_], W_);
        }
        inQ_.FreeTensor(xl);

        // horizontal pair sum via even / odd lane extraction
        uint64_t cnt = 0;
        GatherMaskParams gp{1, static_cast<uint16_t>((R_ * W_) / 64), 8, 0};
        GatherMask(ln, vs, 1, false, 0, gp, cnt);
        GatherMask(ln[outElems_], vs, 2, false, 0, gp, cnt);
        Add(yl, ln, ln[outElems_], outElems_);
        Muls(yl, yl, 0.25f, outElems_);
        outQ_.EnQue(yl);
    }

    __aicore__ inline void CopyOut(uint32_t chunk)
    {
        LocalTensor<float> yl = outQ_.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(outElems_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[(uint64_t)chunk * outElems_], yl, cp);
        outQ_.FreeTensor(yl);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, DEPTH> inQ_;
    TQue<QuePosition::VECOUT, DEPTH> outQ_;
    TBuf<QuePosition::VECCALC> vsum_, lanes_;
    GlobalTensor<float> xGm_, yGm_, scaleGm_, shiftGm_;
    uint32_t C_, W_, OH_, OW_, R_, chunksPerPlane_;
    uint32_t firstChunk_, myChunks_, inElems_, outElems_;
};

extern "C" __global__ __aicore__ void densenet121_transition_layer_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift,
                                                                          GM_ADDR y, GM_ADDR workspace,
                                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TransitionBnReluPool op;
    op.Init(x, scale, shift, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// BatchNorm2d (batch statistics, as in training mode) + ReLU + AvgPool2d(2) in the custom
// kernel, then the bias-free 1x1 conv on the pooled map.
at::Tensor densenet121_transition_layer_impl_npu(const at::Tensor& x, const at::Tensor& gamma,
                                                 const at::Tensor& beta, const at::Tensor& conv_w,
                                                 double eps)
{
    at::Tensor xin = x.contiguous();
    auto stats = at::var_mean(xin, {0, 2, 3}, /*unbiased=*/false, /*keepdim=*/false);
    at::Tensor var = std::get<0>(stats);
    at::Tensor mean = std::get<1>(stats);
    at::Tensor scale = gamma * at::rsqrt(var + eps);
    at::Tensor shift = beta - mean * scale;

    at::Tensor pooled = at::empty({xin.size(0), xin.size(1), xin.size(2) / 2, xin.size(3) / 2}, xin.options());
    EXEC_NPU_CMD(aclnnDensenet121TransitionLayerCustom, xin, scale, shift, pooled);
    return at::conv2d(pooled, conv_w);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("densenet121_transition_layer_custom", &densenet121_transition_layer_impl_npu,
          "DenseNet transition: bn + relu + avgpool (fused) + 1x1 conv");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, num_input_features: int, num_output_features: int):
        super(ModelNew, self).__init__()
        self.transition = torch.nn.Sequential(
            torch.nn.BatchNorm2d(num_input_features),
            torch.nn.ReLU(inplace=True),
            torch.nn.Conv2d(num_input_features, num_output_features, kernel_size=1, bias=False),
            torch.nn.AvgPool2d(kernel_size=2, stride=2)
        )

    def forward(self, x):
        bn = self.transition[0]
        conv = self.transition[2]
        return custom_ops_lib.densenet121_transition_layer_custom(
            x, bn.weight, bn.bias, conv.weight, float(bn.eps))
'''
