project_json_src='''
[
    {
        "op": "DecodeCacheAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "query", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "key_cache", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "value_cache", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DecodeCacheAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, qLen);
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, kvLenAlign);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(uint32_t, scoreRowsPerCore);   // phase 1: (b, j) key rows per core
  TILING_DATA_FIELD_DEF(uint32_t, dTile);              // phase 2: output columns per item
  TILING_DATA_FIELD_DEF(uint32_t, dTileNum);
  TILING_DATA_FIELD_DEF(uint32_t, vRows);              // value rows per DMA burst
  TILING_DATA_FIELD_DEF(uint32_t, pvItemsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DecodeCacheAttentionCustom, DecodeCacheAttentionTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include "decode_cache_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t D_TILE = 256;
constexpr uint32_t V_ROWS = 16;
constexpr uint32_t MAX_Q_ELEMS = 16384;   // all query rows stay resident in UB as fp32

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& qs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ks = context->GetInputShape(1)->GetStorageShape();
    uint32_t batch = qs.GetDim(0), qLen = qs.GetDim(1), dim = qs.GetDim(2);
    uint32_t kvLen = ks.GetDim(1);
    if (qLen * dim > MAX_Q_ELEMS || dim % 16 != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    DecodeCacheAttentionTilingData td;
    td.set_batch(batch); td.set_qLen(qLen); td.set_kvLen(kvLen); td.set_dim(dim);
    td.set_kvLenAlign((kvLen + 7) / 8 * 8);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(dim)));
    uint32_t scoreRows = batch * kvLen;
    td.set_scoreRowsPerCore((scoreRows + cores - 1) / cores);
    uint32_t dTile = dim < D_TILE ? dim : D_TILE;
    uint32_t dTileNum = (dim + dTile - 1) / dTile;
    td.set_dTile(dTile);
    td.set_dTileNum(dTileNum);
    td.set_vRows(V_ROWS);
    td.set_pvItemsPerCore((batch * dTileNum + cores - 1) / cores);

    // every core must reach the SyncAll between the two phases
    context->SetBlockDim(cores);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)batch * qLen * td.get_kvLenAlign() * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class DecodeCacheAttentionCustom : public OpDef {
public:
    explicit DecodeCacheAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("query").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("key_cache").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("value_cache").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DecodeCacheAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SEG = 256;      // key rows whose scores are staged before one strided flush

__aicore__ inline void VectorToScalar()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
}

// Phase 1: S[b, q, j] = scale * <Q[b, q], K[b, j]>, written to workspace.
// Phase 2: per (b, d tile): softmax over j, then O[b, q, d] = sum_j P[q, j] * V[b, j, d].
template <typename T>
class DecodeCacheAttention {
public:
    __aicore__ inline DecodeCacheAttention() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, GM_ADDR ws,
                                const DecodeCacheAttentionTilingData& td)
    {
        td_ = td;
        qGm.SetGlobalBuffer((__gm__ T*)q);
        kGm.SetGlobalBuffer((__gm__ T*)k);
        vGm.SetGlobalBuffer((__gm__ T*)v);
        oGm.SetGlobalBuffer((__gm__ T*)o);
        sGm.SetGlobalBuffer((__gm__ float*)ws);
    }

    __aicore__ inline void Process()
    {
        ScorePhase();
        pipe.Reset();
        SyncAll();
        ProbValuePhase();
    }

private:
    // ---------------- phase 1 ----------------
    __aicore__ inline void ScorePhase()
    {
        uint32_t D = td_.dim;
        pipe.InitBuffer(kQ, BUFFER_NUM, D * sizeof(T));
        pipe.InitBuffer(qBuf, td_.qLen * D * sizeof(float));
        pipe.InitBuffer(kF32, D * sizeof(float));
        pipe.InitBuffer(prodBuf, D * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, D * sizeof(float));
        pipe.InitBuffer(segQ, 1, td_.qLen * SEG * sizeof(float));

        uint32_t total = td_.batch * td_.kvLen;
        uint32_t g = GetBlockIdx() * td_.scoreRowsPerCore;
        uint32_t gEnd = g + td_.scoreRowsPerCore;
        if (gEnd > total) gEnd = total;
        int32_t loadedBatch = -1;
        while (g < gEnd) {
            uint32_t b = g / td_.kvLen;
            uint32_t j = g % td_.kvLen;
            uint32_t len = gEnd - g;
            if (td_.kvLen - j < len) len = td_.kvLen - j;
            if (len > SEG) len = SEG;
            if ((int32_t)b != loadedBatch) {
                LoadQuery(b);
                loadedBatch = (int32_t)b;
            }
            ScoreSegment(b, j, len);
            g += len;
        }
    }

    __aicore__ inline void LoadQuery(uint32_t b)
    {
        uint32_t n = td_.qLen * td_.dim;
        LocalTensor<float> qf = qBuf.Get<float>();
        // reuse the K queue slot-by-slot to stage the query rows
        for (uint32_t r = 0; r < td_.qLen; ++r) {
            LocalTensor<T> st = kQ.AllocTensor<T>();
            DataCopy(st, qGm[((uint64_t)b * td_.qLen + r) * td_.dim], td_.dim);
            kQ.EnQue(st);
            st = kQ.DeQue<T>();
            if constexpr (IsSameType<T, float>::value) {
                Adds(qf[r * td_.dim], st, 0.0f, td_.dim);
            } else {
                Cast(qf[r * td_.dim], st, RoundMode::CAST_NONE, td_.dim);
            }
            kQ.FreeTensor(st);
        }
        (void)n;
    }

    __aicore__ inline void ScoreSegment(uint32_t b, uint32_t j0, uint32_t len)
    {
        uint32_t D = td_.dim;
        LocalTensor<float> qf = qBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> seg = segQ.AllocTensor<float>();

        // prefetch first row; the queue depth of 2 overlaps the next K row with this row's math
        IssueKey(b, j0);
        for (uint32_t jj = 0; jj < len; ++jj) {
            if (jj + 1 < len) IssueKey(b, j0 + jj + 1);
            LocalTensor<T> kr = kQ.DeQue<T>();
            LocalTensor<float> kf;
            if constexpr (IsSameType<T, float>::value) {
                kf = kr;
            } else {
                kf = kF32.Get<float>();
                Cast(kf, kr, RoundMode::CAST_NONE, D);
            }
            for (uint32_t q = 0; q < td_.qLen; ++q) {
                Mul(prod, qf[q * D], kf, D);
                ReduceSum(red[q * 8], prod, work, D);
            }
            VectorToScalar();
            for (uint32_t q = 0; q < td_.qLen; ++q) {
                seg.SetValue(q * SEG + jj, red.GetValue(q * 8) * td_.scale);
            }
            kQ.FreeTensor(kr);
        }
        segQ.EnQue(seg);
        seg = segQ.DeQue<float>();
        uint32_t lenAlign = (len + 7) / 8 * 8;
        DataCopyExtParams cp{static_cast<uint16_t>(td_.qLen), static_cast<uint32_t>(len * sizeof(float)),
                             static_cast<uint32_t>((SEG - lenAlign) / 8),
                             static_cast<uint32_t>((td_.kvLenAlign - len) * sizeof(float)), 0};
        DataCopyPad(sGm[(uint64_t)b * td_.qLen * td_.kvLenAlign + j0], seg, cp);
        segQ.FreeTensor(seg);
    }

    __aicore__ inline void IssueKey(uint32_t b, uint32_t j)
    {
        LocalTensor<T> kr = kQ.AllocTensor<T>();
        DataCopy(kr, kGm[((uint64_t)b * td_.kvLen + j) * td_.dim], td_.dim);
        kQ.EnQue(kr);
    }

    // ---------------- phase 2 ----------------
    __aicore__ inline void ProbValuePhase()
    {
        uint32_t L = td_.kvLenAlign;
        uint32_t dT = td_.dTile;
        pipe.InitBuffer(pBuf, td_.qLen * L * sizeof(float));
        pipe.InitBuffer(vQ, BUFFER_NUM, td_.vRows * dT * sizeof(T));
        pipe.InitBuffer(vF32, td_.vRows * dT * sizeof(float));
        pipe.InitBuffer(accBuf, td_.qLen * dT * sizeof(float));
        pipe.InitBuffer(oQ, BUFFER_NUM, dT * sizeof(T));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, L * sizeof(float));

        uint32_t items = td_.batch * td_.dTileNum;
        uint32_t i0 = GetBlockIdx() * td_.pvItemsPerCore;
        uint32_t i1 = i0 + td_.pvItemsPerCore;
        if (i1 > items) i1 = items;
        int32_t probBatch = -1;
        for (uint32_t it = i0; it < i1; ++it) {
            uint32_t b = it / td_.dTileNum;
            uint32_t dt = it % td_.dTileNum;
            if ((int32_t)b != probBatch) {
                Softmax(b);
                probBatch = (int32_t)b;
            }
            WeightedValues(b, dt);
        }
    }

    __aicore__ inline void Softmax(uint32_t b)
    {
        uint32_t L = td_.kvLenAlign;
        LocalTensor<float> p = pBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        DataCopy(p, sGm[(uint64_t)b * td_.qLen * L], td_.qLen * L);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
        for (uint32_t q = 0; q < td_.qLen; ++q) {
            LocalTensor<float> row = p[q * L];
            ReduceMax(red, row, work, td_.kvLen);
            VectorToScalar();
            float mx = red.GetValue(0);
            Adds(row, row, -mx, td_.kvLen);
            Exp(row, row, td_.kvLen);
            ReduceSum(red, row, work, td_.kvLen);
            VectorToScalar();
            float inv = 1.0f / red.GetValue(0);
            Muls(row, row, inv, td_.kvLen);
        }
        VectorToScalar();
    }

    __aicore__ inline void WeightedValues(uint32_t b, uint32_t dt)
    {
        uint32_t L = td_.kvLenAlign;
        uint32_t dT = td_.dTile;
        uint32_t d0 = dt * dT;
        uint32_t dLen = td_.dim - d0 < dT ? td_.dim - d0 : dT;
        LocalTensor<float> p = pBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, td_.qLen * dT);

        for (uint32_t j0 = 0; j0 < td_.kvLen; j0 += td_.vRows) {
            uint32_t rows = td_.kvLen - j0 < td_.vRows ? td_.kvLen - j0 : td_.vRows;
            LocalTensor<T> vt = vQ.AllocTensor<T>();
            DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(dLen * sizeof(T)),
                                 static_cast<uint32_t>((td_.dim - dLen) * sizeof(T)),
                                 static_cast<uint32_t>((dT - dLen) * sizeof(T) / 32), 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
            DataCopyPad(vt, vGm[((uint64_t)b * td_.kvLen + j0) * td_.dim + d0], cp, pad);
            vQ.EnQue(vt);
            vt = vQ.DeQue<T>();
            LocalTensor<float> vf;
            if constexpr (IsSameType<T, float>::value) {
                vf = vt;
            } else {
                vf = vF32.Get<float>();
                Cast(vf, vt, RoundMode::CAST_NONE, rows * dT);
            }
            for (uint32_t r = 0; r < rows; ++r) {
                for (uint32_t q = 0; q < td_.qLen; ++q) {
                    Axpy(acc[q * dT], vf[r * dT], p.GetValue(q * L + j0 + r), dT);
                }
            }
            vQ.FreeTensor(vt);
        }

        for (uint32_t q = 0; q < td_.qLen; ++q) {
            LocalTensor<T> ot = oQ.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                Adds(ot, acc[q * dT], 0.0f, dT);
            } else {
                Cast(ot, acc[q * dT], RoundMode::CAST_ROUND, dT);
            }
            oQ.EnQue(ot);
            ot = oQ.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(dLen * sizeof(T)), 0, 0, 0};
            DataCopyPad(oGm[((uint64_t)b * td_.qLen + q) * td_.dim + d0], ot, cp);
            oQ.FreeTensor(ot);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> kQ, vQ;
    TQue<TPosition::VECOUT, 1> segQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> oQ;
    TBuf<TPosition::VECCALC> qBuf, kF32, prodBuf, redBuf, workBuf, pBuf, vF32, accBuf;
    GlobalTensor<T> qGm, kGm, vGm, oGm;
    GlobalTensor<float> sGm;
    DecodeCacheAttentionTilingData td_;
};

extern "C" __global__ __aicore__ void decode_cache_attention_custom(GM_ADDR query, GM_ADDR key_cache,
                                                                    GM_ADDR value_cache, GM_ADDR out,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(0)) {
        DecodeCacheAttention<float> op;
        op.Init(query, key_cache, value_cache, out, usr, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        DecodeCacheAttention<half> op;
        op.Init(query, key_cache, value_cache, out, usr, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor decode_cache_attention_npu(const at::Tensor& query, const at::Tensor& key_cache,
                                      const at::Tensor& value_cache)
{
    TORCH_CHECK(query.dim() == 3 && key_cache.dim() == 3 && value_cache.dim() == 3,
                "expected (batch, len, d_model) tensors");
    TORCH_CHECK(key_cache.sizes() == value_cache.sizes(), "K/V cache shapes differ");
    at::Tensor q = query.contiguous();
    at::Tensor k = key_cache.contiguous();
    at::Tensor v = value_cache.contiguous();
    at::Tensor out = at::empty_like(q);
    EXEC_NPU_CMD(aclnnDecodeCacheAttentionCustom, q, k, v, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("decode_cache_attention_custom", &decode_cache_attention_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("decode_cache_attention_custom", &decode_cache_attention_npu, "softmax(QK^T/sqrt(d))V over a KV cache");
}
"""
