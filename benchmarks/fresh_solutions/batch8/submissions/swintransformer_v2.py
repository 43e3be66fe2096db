project_json_src='''
[
    {
        "op": "CosineWindowAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "qkv", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "logit_scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "pos_bias", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "attn_mask", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CosineWindowAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, windows);
  TILING_DATA_FIELD_DEF(uint32_t, tokens);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, maskWindows);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CosineWindowAttentionCustom, CosineWindowAttentionTilingData)
}
"""

host_operator_src="""
#include "cosine_window_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CosineWindowAttentionTilingData td;
    auto qkvShape = context->GetInputShape(0)->GetStorageShape();    // [B_, N, 3C]
    auto scaleShape = context->GetInputShape(1)->GetStorageShape();  // [nH]
    auto maskShape = context->GetInputShape(3)->GetStorageShape();   // [nW, N, N]

    uint32_t windows = qkvShape.GetDim(0);
    uint32_t tokens = qkvShape.GetDim(1);
    uint32_t channels = qkvShape.GetDim(2) / 3;
    uint32_t heads = scaleShape.GetDim(0);
    uint32_t nW = maskShape.GetDim(0);
    if (heads == 0 || channels % heads != 0 || nW == 0 || windows % nW != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t total = windows * heads;
    uint32_t per = (total + coreNum - 1) / coreNum;
    uint32_t blocks = (total + per - 1) / per;

    td.set_windows(windows);
    td.set_tokens(tokens);
    td.set_channels(channels);
    td.set_heads(heads);
    td.set_headDim(channels / heads);
    td.set_maskWindows(nW);
    td.set_tasksPerCore(per);
    td.set_totalTasks(total);

    context->SetBlockDim(blocks);
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
    const gert::Shape* qkv = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(3);
    out->SetDim(0, qkv->GetDim(0));
    out->SetDim(1, qkv->GetDim(1));
    out->SetDim(2, qkv->GetDim(2) / 3);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class CosineWindowAttentionCustom : public OpDef {
public:
    explicit CosineWindowAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("qkv").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("logit_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("pos_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("attn_mask").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CosineWindowAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr float NORM_EPS = 1e-12f;

class CosineWindowAttention {
public:
    __aicore__ inline CosineWindowAttention() {}

    __aicore__ inline void Init(GM_ADDR qkv, GM_ADDR scale, GM_ADDR bias, GM_ADDR mask, GM_ADDR out,
                                const CosineWindowAttentionTilingData& td)
    {
        nWin = td.windows; N = td.tokens; C = td.channels; nH = td.heads;
        hd = td.headDim; nW = td.maskWindows; per = td.tasksPerCore; total = td.totalTasks;
        nnPad = (N * N + 7) / 8 * 8;
        rowPad = (N + 7) / 8 * 8;

        qkvGm.SetGlobalBuffer((__gm__ float*)qkv);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale);
        biasGm.SetGlobalBuffer((__gm__ float*)bias);
        maskGm.SetGlobalBuffer((__gm__ float*)mask);
        outGm.SetGlobalBuffer((__gm__ float*)out);

        pipe.InitBuffer(qkvQue, 1, 3 * N * hd * sizeof(float));
        pipe.InitBuffer(biasQue, 1, 2 * nnPad * sizeof(float));
        pipe.InitBuffer(outQue, 1, N * hd * sizeof(float));
        pipe.InitBuffer(rowBuf, rowPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t start = GetBlockIdx() * per;
        uint32_t stop = start + per < total ? start + per : total;
        for (uint32_t t = start; t < stop; ++t) {
            uint32_t w = t / nH;
            uint32_t h = t % nH;
            CopyIn(w, h);
            Compute(h);
            CopyOut(w, h);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t w, uint32_t h)
    {
        LocalTensor<float> qkvL = qkvQue.AllocTensor<float>();
        LocalTensor<float> bm = biasQue.AllocTensor<float>();
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyExtParams rows{(uint16_t)N, (uint32_t)(hd * sizeof(float)),
                               (uint32_t)((3 * C - hd) * sizeof(float)), 0, 0};
        uint64_t base = (uint64_t)w * N * 3 * C + h * hd;
        for (uint32_t part = 0; part < 3; ++part) {
            DataCopyPad(qkvL[part * N * hd], qkvGm[base + part * C], rows, pad);
        }
        DataCopyExtParams flat{1, (uint32_t)(N * N * sizeof(float)), 0, 0, 0};
        DataCopyPad(bm, biasGm[(uint64_t)h * N * N], flat, pad);
        DataCopyPad(bm[nnPad], maskGm[(uint64_t)(w % nW) * N * N], flat, pad);
        qkvQue.EnQue(qkvL);
        biasQue.EnQue(bm);
    }

    __aicore__ inline void NormalizeRows(LocalTensor<float>& x, uint32_t off)
    {
        for (uint32_t i = 0; i < N; ++i) {
            uint32_t r = off + i * hd;
            float ss = 0.0f;
            for (uint32_t d = 0; d < hd; ++d) {
                float v = x.GetValue(r + d);
                ss += v * v;
            }
            float nrm = sqrtf(ss);
            float inv = 1.0f / (nrm > NORM_EPS ? nrm : NORM_EPS);
            for (uint32_t d = 0; d < hd; ++d) {
                x.SetValue(r + d, x.GetValue(r + d) * inv);
            }
        }
    }

    __aicore__ inline void Compute(uint32_t h)
    {
        LocalTensor<float> x = qkvQue.DeQue<float>();
        LocalTensor<float> bm = biasQue.DeQue<float>();
        LocalTensor<float> o = outQue.AllocTensor<float>();
        LocalTensor<float> p = rowBuf.Get<float>();
        float ls = scaleGm.GetValue(h);
        uint32_t kOff = N * hd;
        uint32_t vOff = 2 * N * hd;

        NormalizeRows(x, 0);
        NormalizeRows(x, kOff);

        for (uint32_t i = 0; i < N; ++i) {
            float mx = -3.402823466e+38f;
            for (uint32_t j = 0; j < N; ++j) {
                float dot = 0.0f;
                for (uint32_t d = 0; d < hd; ++d) {
                    dot += x.GetValue(i * hd + d) * x.GetValue(kOff + j * hd + d);
                }
                float s = dot * ls + bm.GetValue(i * N + j) + bm.GetValue(nnPad + i * N + j);
                p.SetValue(j, s);
                mx = s > mx ? s : mx;
            }
            float sum = 0.0f;
            for (uint32_t j = 0; j < N; ++j) {
                float e = expf(p.GetValue(j) - mx);
                p.SetValue(j, e);
                sum += e;
            }
            float rs = 1.0f / sum;
            for (uint32_t d = 0; d < hd; ++d) {
                float acc = 0.0f;
                for (uint32_t j = 0; j < N; ++j) {
                    acc += p.GetValue(j) * x.GetValue(vOff + j * hd + d);
                }
                o.SetValue(i * hd + d, acc * rs);
            }
        }
        outQue.EnQue(o);
        qkvQue.FreeTensor(x);
        biasQue.FreeTensor(bm);
    }

    __aicore__ inline void CopyOut(uint32_t w, uint32_t h)
    {
        LocalTensor<float> o = outQue.DeQue<float>();
        // back to [B_, N, C] with the head slice at h*hd
        DataCopyExtParams rows{(uint16_t)N, (uint32_t)(hd * sizeof(float)), 0,
                               (uint32_t)((C - hd) * sizeof(float)), 0};
        DataCopyPad(outGm[(uint64_t)w * N * C + h * hd], o, rows);
        outQue.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qkvQue, biasQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> rowBuf;
    GlobalTensor<float> qkvGm, scaleGm, biasGm, maskGm, outGm;
    uint32_t nWin, N, C, nH, hd, nW, per, total, nnPad, rowPad;
};

extern "C" __global__ __aicore__ void cosine_window_attention_custom(GM_ADDR qkv, GM_ADDR logit_scale, GM_ADDR pos_bias,
                                                                     GM_ADDR attn_mask, GM_ADDR out,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    CosineWindowAttention op;
    op.Init(qkv, logit_scale, pos_bias, attn_mask, out, td);
    op.Process();
}
"""

python_bind_src="""
#include <cmath>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// qkv [B_, N, 3C] (already projected), scale [nH] (clamped + exp'd),
// bias [nH, N, N] (16*sigmoid applied), mask [nW, N, N] -> [B_, N, C]
at::Tensor cosine_window_attention_impl_npu(const at::Tensor& qkv, const at::Tensor& scale,
                                            const at::Tensor& bias, const at::Tensor& mask)
{
    auto out = at::empty({qkv.size(0), qkv.size(1), qkv.size(2) / 3}, qkv.options());
    EXEC_NPU_CMD(aclnnCosineWindowAttentionCustom, qkv, scale, bias, mask, out);
    return out;
}

// WindowAttention.forward of Swin V2 with the attention core on the custom kernel
at::Tensor swin_v2_window_attention_npu(const at::Tensor& x, const at::Tensor& qkvWeight,
                                        const at::Tensor& qBias, const at::Tensor& vBias,
                                        const at::Tensor& logitScale,
                                        const at::Tensor& cpbW1, const at::Tensor& cpbB1, const at::Tensor& cpbW2,
                                        const at::Tensor& coordsTable, const at::Tensor& relIndex,
                                        const c10::optional<at::Tensor>& mask,
                                        const at::Tensor& projW, const at::Tensor& projB)
{
    int64_t N = x.size(1);
    int64_t nH = logitScale.size(0);
    at::Tensor qkvB = at::cat({qBias, at::zeros_like(vBias), vBias});
    at::Tensor qkv = at::linear(x, qkvWeight, qkvB).contiguous();

    at::Tensor scale = at::clamp_max(logitScale, std::log(100.0)).exp().reshape({nH}).contiguous();

    at::Tensor table = at::linear(at::relu(at::linear(coordsTable, cpbW1, cpbB1)), cpbW2).view({-1, nH});
    at::Tensor bias = table.index_select(0, relIndex.view(-1)).view({N, N, nH}).permute({2, 0, 1});
    bias = (at::sigmoid(bias) * 16.0).contiguous();

    at::Tensor m = mask.has_value() ? mask.value().contiguous() : at::zeros({1, N, N}, x.options());
    at::Tensor y = cosine_window_attention_impl_npu(qkv, scale, bias, m);
    return at::linear(y, projW, projB);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cosine_window_attention_custom", &cosine_window_attention_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cosine_window_attention_custom", &cosine_window_attention_impl_npu, "swin v2 cosine window attention core");
    m.def("swin_v2_window_attention", &swin_v2_window_attention_npu, "swin v2 window attention module");
}
"""
