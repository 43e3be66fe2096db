project_json_src='''
[
    {
        "op": "GroupedKvSoftmaxAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "query",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "key",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "value",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "context",
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
BEGIN_TILING_DATA_DEF(GroupedKvSoftmaxAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, qHeads);
  TILING_DATA_FIELD_DEF(uint32_t, kvHeads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);
  TILING_DATA_FIELD_DEF(uint32_t, unitCount);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, qChunkRows);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupedKvSoftmaxAttentionCustom, GroupedKvSoftmaxAttentionTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include <algorithm>
#include "grouped_kv_softmax_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t UB_BUDGET = 160 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GroupedKvSoftmaxAttentionTilingData tiling;
    const gert::Shape& qShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& kShape = context->GetInputShape(1)->GetStorageShape();
    // q: [B, L, H, D]   k/v: [B, L, Hkv, D]
    uint32_t B = qShape.GetDim(0);
    uint32_t L = qShape.GetDim(1);
    uint32_t H = qShape.GetDim(2);
    uint32_t D = qShape.GetDim(3);
    uint32_t Hkv = kShape.GetDim(2);
    if (Hkv == 0 || H % Hkv != 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores == 0) cores = 1;

    uint32_t units = B * Hkv;
    uint32_t used = std::min(cores, units);
    uint32_t perCore = (units + used - 1) / used;
    used = (units + perCore - 1) / perCore;

    // K and V stay resident, the rest of UB goes to query rows + output rows + one score row
    uint32_t kvBytes = 2 * L * D * sizeof(float);
    uint32_t scoreBytes = ((L + 7) / 8) * 8 * sizeof(float);
    uint32_t left = UB_BUDGET > kvBytes + scoreBytes ? UB_BUDGET - kvBytes - scoreBytes : 0;
    uint32_t chunk = left / (2 * D * sizeof(float));
    if (chunk == 0) return ge::GRAPH_FAILED;
    chunk = std::min(chunk, L);

    tiling.set_batch(B);
    tiling.set_seqLen(L);
    tiling.set_qHeads(H);
    tiling.set_kvHeads(Hkv);
    tiling.set_headDim(D);
    tiling.set_groupSize(H / Hkv);
    tiling.set_unitCount(units);
    tiling.set_unitsPerCore(perCore);
    tiling.set_qChunkRows(chunk);
    tiling.set_scale(1.0f / std::sqrt(static_cast<float>(D)));

    context->SetBlockDim(used);
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
class GroupedKvSoftmaxAttentionCustom : public OpDef {
public:
    explicit GroupedKvSoftmaxAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("query").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("key").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("context").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupedKvSoftmaxAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

class GroupedKvSoftmaxAttentionKernel {
public:
    __aicore__ inline GroupedKvSoftmaxAttentionKernel() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o,
                                const GroupedKvSoftmaxAttentionTilingData& t)
    {
        B = t.batch; L = t.seqLen; H = t.qHeads; Hkv = t.kvHeads; D = t.headDim;
        group = t.groupSize; units = t.unitCount; perCore = t.unitsPerCore;
        chunk = t.qChunkRows; scale = t.scale;
        scoreLen = (L + 7) / 8 * 8;

        qGm.SetGlobalBuffer((__gm__ float*)q);
        kGm.SetGlobalBuffer((__gm__ float*)k);
        vGm.SetGlobalBuffer((__gm__ float*)v);
        oGm.SetGlobalBuffer((__gm__ float*)o);

        pipe.InitBuffer(kvQue, 1, 2 * L * D * sizeof(float));
        pipe.InitBuffer(qQue, 1, chunk * D * sizeof(float));
        pipe.InitBuffer(oQue, 1, chunk * D * sizeof(float));
        pipe.InitBuffer(scoreBuf, scoreLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * perCore;
        uint32_t last = first + perCore;
        if (last > units) last = units;
        for (uint32_t u = first; u < last; ++u) {
            uint32_t b = u / Hkv;
            uint32_t kvh = u % Hkv;
            LoadKv(b, kvh);
            LocalTensor<float> kv = kvQue.DeQue<float>();
            for (uint32_t g = 0; g < group; ++g) {
                uint32_t h = kvh * group + g;
                for (uint32_t r0 = 0; r0 < L; r0 += chunk) {
                    uint32_t rows = (L - r0) < chunk ? (L - r0) : chunk;
                    LoadQuery(b, h, r0, rows);
                    Attend(kv, rows);
                    StoreContext(b, h, r0, rows);
                }
            }
            kvQue.FreeTensor(kv);
        }
    }

private:
    __aicore__ inline void LoadKv(uint32_t b, uint32_t kvh)
    {
        LocalTensor<float> kv = kvQue.AllocTensor<float>();
        // rows of one kv head are Hkv*D apart in GM
        DataCopyExtParams p{(uint16_t)L, (uint32_t)(D * sizeof(float)),
                            (uint32_t)((Hkv - 1) * D * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        uint64_t base = ((uint64_t)b * L * Hkv + kvh) * D;
        DataCopyPad(kv, kGm[base], p, noPad);
        DataCopyPad(kv[L * D], vGm[base], p, noPad);
        kvQue.EnQue(kv);
    }

    __aicore__ inline void LoadQuery(uint32_t b, uint32_t h, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> qt = qQue.AllocTensor<float>();
        DataCopyExtParams p{(uint16_t)rows, (uint32_t)(D * sizeof(float)),
                            (uint32_t)((H - 1) * D * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        uint64_t base = (((uint64_t)b * L + r0) * H + h) * D;
        DataCopyPad(qt, qGm[base], p, noPad);
        qQue.EnQue(qt);
    }

    __aicore__ inline void Attend(LocalTensor<float>& kv, uint32_t rows)
    {
        LocalTensor<float> qt = qQue.DeQue<float>();
        LocalTensor<float> ot = oQue.AllocTensor<float>();
        LocalTensor<float> sc = scoreBuf.Get<float>();
        uint32_t vOff = L * D;

        for (uint32_t i = 0; i < rows; ++i) {
            uint32_t qOff = i * D;
            float rowMax = -3.402823466e+38f;
            for (uint32_t j = 0; j < L; ++j) {
                float acc = 0.0f;
                uint32_t kOff = j * D;
                for (uint32_t d = 0; d < D; ++d) {
                    acc += qt.GetValue(qOff + d) * kv.GetValue(kOff + d);
                }
                acc *= scale;
                sc.SetValue(j, acc);
                if (acc > rowMax) rowMax = acc;
            }
            float denom = 0.0f;
            for (uint32_t j = 0; j < L; ++j) {
                float e = expf(sc.GetValue(j) - rowMax);
                sc.SetValue(j, e);
                denom += e;
            }
            float inv = 1.0f / denom;
            for (uint32_t d = 0; d < D; ++d) {
                ot.SetValue(qOff + d, 0.0f);
            }
            for (uint32_t j = 0; j < L; ++j) {
                float p = sc.GetValue(j) * inv;
                uint32_t row = vOff + j * D;
                for (uint32_t d = 0; d < D; ++d) {
                    ot.SetValue(qOff + d, ot.GetValue(qOff + d) + p * kv.GetValue(row + d));
                }
            }
        }
        oQue.EnQue(ot);
        qQue.FreeTensor(qt);
    }

    __aicore__ inline void StoreContext(uint32_t b, uint32_t h, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> ot = oQue.DeQue<float>();
        DataCopyExtParams p{(uint16_t)rows, (uint32_t)(D * sizeof(float)), 0,
                            (uint32_t)((H - 1) * D * sizeof(float)), 0};
        uint64_t base = (((uint64_t)b * L + r0) * H + h) * D;
        DataCopyPad(oGm[base], ot, p);
        oQue.FreeTensor(ot);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> kvQue;
    TQue<QuePosition::VECIN, 1> qQue;
    TQue<QuePosition::VECOUT, 1> oQue;
    TBuf<TPosition::VECCALC> scoreBuf;
    GlobalTensor<float> qGm, kGm, vGm, oGm;
    uint32_t B, L, H, Hkv, D, group, units, perCore, chunk, scoreLen;
    float scale;
};

extern "C" __global__ __aicore__ void grouped_kv_softmax_attention_custom(GM_ADDR query, GM_ADDR key, GM_ADDR value,
                                                                          GM_ADDR context, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GroupedKvSoftmaxAttentionKernel op;
    op.Init(query, key, value, context, t);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// core op: q [B,L,H,D], k/v [B,L,Hkv,D] -> [B,L,H,D]
at::Tensor grouped_kv_softmax_attention_impl_npu(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v)
{
    at::Tensor out = at::empty_like(q);
    EXEC_NPU_CMD(aclnnGroupedKvSoftmaxAttentionCustom, q, k, v, out);
    return out;
}

// full block: projections on the cube via at::linear, attention core in the custom kernel
at::Tensor grouped_kv_attention_block_npu(const at::Tensor& x,
                                          const at::Tensor& wq, const at::Tensor& bq,
                                          const at::Tensor& wk, const at::Tensor& bk,
                                          const at::Tensor& wv, const at::Tensor& bv,
                                          const at::Tensor& wo, const at::Tensor& bo,
                                          int64_t numHeads, int64_t numKvHeads)
{
    int64_t B = x.size(0), L = x.size(1), D = x.size(2);
    int64_t hd = D / numHeads;
    at::Tensor q = at::linear(x, wq, bq).view({B, L, numHeads, hd}).contiguous();
    at::Tensor k = at::linear(x, wk, bk).view({B, L, numKvHeads, hd}).contiguous();
    at::Tensor v = at::linear(x, wv, bv).view({B, L, numKvHeads, hd}).contiguous();
    at::Tensor ctx = grouped_kv_softmax_attention_impl_npu(q, k, v).view({B, L, D});
    return at::linear(ctx, wo, bo);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("grouped_kv_softmax_attention_custom", &grouped_kv_softmax_attention_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("grouped_kv_softmax_attention_custom", &grouped_kv_softmax_attention_impl_npu,
          "softmax attention where query heads share kv heads");
    m.def("grouped_kv_attention_block", &grouped_kv_attention_block_npu,
          "q/k/v projections + grouped kv attention + output projection");
}
"""
