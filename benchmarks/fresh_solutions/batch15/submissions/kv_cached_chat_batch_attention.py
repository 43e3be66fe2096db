project_json_src='''
[
    {
        "op": "KvCachedChatBatchAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "q",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "k_cache",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "v_cache",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "out",
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
BEGIN_TILING_DATA_DEF(KvCachedChatBatchAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, qLen);
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, kvLenAlign);     // kvLen rounded up to 8 floats (32B)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);    // K/V rows moved by one DMA
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);      // batch * qLen query rows
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(float, scale);             // 1 / sqrt(headDim)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(KvCachedChatBatchAttentionCustom, KvCachedChatBatchAttentionCustomTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include <algorithm>
#include "kv_cached_chat_batch_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB bytes reserved for the resident buffers (q, scores, acc, tmp, reduce work)
// are computed below; what is left goes to the double-buffered K/V tile.
constexpr uint32_t UB_USABLE = 180 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    KvCachedChatBatchAttentionCustomTilingData tiling;
    const gert::Shape& qShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& kShape = context->GetInputShape(1)->GetOriginShape();
    if (qShape.GetDimNum() != 3 || kShape.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t batch = qShape.GetDim(0);
    uint32_t qLen = qShape.GetDim(1);
    uint32_t headDim = qShape.GetDim(2);
    uint32_t kvLen = kShape.GetDim(1);
    if (headDim % 8 != 0) {
        return ge::GRAPH_FAILED;   // rows must be 32B multiples for the vector path
    }
    uint32_t kvLenAlign = (kvLen + 7) / 8 * 8;

    // resident: q, acc, tmp (headDim each) + scores (kvLenAlign) + work (max of both)
    uint32_t workLen = std::max(headDim, kvLenAlign);
    uint32_t resident = (3 * headDim + kvLenAlign + workLen + 16) * sizeof(float);
    if (resident >= UB_USABLE) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowsPerTile = (UB_USABLE - resident) / (2 * headDim * sizeof(float));
    rowsPerTile = std::max<uint32_t>(1, std::min<uint32_t>(rowsPerTile, 8));
    rowsPerTile = std::min(rowsPerTile, kvLen);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t totalRows = batch * qLen;
    uint32_t blockDim = std::min(coreNum, totalRows);
    if (blockDim == 0) {
        blockDim = 1;
    }
    uint32_t rowsPerCore = (totalRows + blockDim - 1) / blockDim;
    blockDim = (totalRows + rowsPerCore - 1) / rowsPerCore;
    context->SetBlockDim(blockDim);

    tiling.set_batch(batch);
    tiling.set_qLen(qLen);
    tiling.set_kvLen(kvLen);
    tiling.set_headDim(headDim);
    tiling.set_kvLenAlign(kvLenAlign);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_scale(1.0f / std::sqrt(static_cast<float>(headDim)));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* qShape = context->GetInputShape(0);
    const gert::Shape* vShape = context->GetInputShape(2);
    gert::Shape* outShape = context->GetOutputShape(0);
    outShape->SetDimNum(3);
    outShape->SetDim(0, qShape->GetDim(0));
    outShape->SetDim(1, qShape->GetDim(1));
    outShape->SetDim(2, vShape->GetDim(2));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class KvCachedChatBatchAttentionCustom : public OpDef {
public:
    explicit KvCachedChatBatchAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("q")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k_cache")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v_cache")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(KvCachedChatBatchAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Decode-style attention: every query row attends over the whole KV cache of
// its batch. One AIV core owns a set of query rows; for each row it
//   1) streams K in tiles of rowsPerTile rows and computes s_j = <q, k_j> * scale,
//   2) runs a numerically stable softmax over the kvLen scores in UB,
//   3) streams V and accumulates acc += p_j * v_j with Axpy,
//   4) normalizes by the softmax denominator and writes the row out.
class KernelKvCachedAttention {
public:
    __aicore__ inline KernelKvCachedAttention() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out,
                                const KvCachedChatBatchAttentionCustomTilingData& t)
    {
        qLen = t.qLen;
        kvLen = t.kvLen;
        headDim = t.headDim;
        kvLenAlign = t.kvLenAlign;
        rowsPerTile = t.rowsPerTile;
        scale = t.scale;

        uint32_t startRow = GetBlockIdx() * t.rowsPerCore;
        uint32_t endRow = startRow + t.rowsPerCore;
        if (endRow > t.totalRows) {
            endRow = t.totalRows;
        }
        rowBegin = startRow;
        rowEnd = startRow < endRow ? endRow : startRow;

        qGm.SetGlobalBuffer((__gm__ float*)q, (uint64_t)t.totalRows * headDim);
        kGm.SetGlobalBuffer((__gm__ float*)k, (uint64_t)t.batch * kvLen * headDim);
        vGm.SetGlobalBuffer((__gm__ float*)v, (uint64_t)t.batch * kvLen * headDim);
        outGm.SetGlobalBuffer((__gm__ float*)out, (uint64_t)t.totalRows * headDim);

        uint32_t workLen = headDim > kvLenAlign ? headDim : kvLenAlign;
        pipe.InitBuffer(qQue, 1, headDim * sizeof(float));
        pipe.InitBuffer(kvQue, BUFFER_NUM, rowsPerTile * headDim * sizeof(float));
        pipe.InitBuffer(outQue, 1, headDim * sizeof(float));
        pipe.InitBuffer(scoreBuf, kvLenAlign * sizeof(float));
        pipe.InitBuffer(tmpBuf, headDim * sizeof(float));
        pipe.InitBuffer(workBuf, workLen * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = rowBegin; row < rowEnd; ++row) {
            ProcessRow(row);
        }
    }

private:
    __aicore__ inline void ProcessRow(uint32_t row)
    {
        uint32_t b = row / qLen;
        uint64_t kvBase = (uint64_t)b * kvLen * headDim;

        // bring the query row in
        LocalTensor<float> qIn = qQue.AllocTensor<float>();
        DataCopy(qIn, qGm[(uint64_t)row * headDim], headDim);
        qQue.EnQue(qIn);
        LocalTensor<float> qLocal = qQue.DeQue<float>();

        LocalTensor<float> scores = scoreBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        // ---- phase 1: scores = K q * scale ----
        uint32_t tiles = (kvLen + rowsPerTile - 1) / rowsPerTile;
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t r0 = t * rowsPerTile;
            uint32_t nRows = (r0 + rowsPerTile <= kvLen) ? rowsPerTile : (kvLen - r0);
            LoadTile(kGm, kvBase + (uint64_t)r0 * headDim, nRows);
            LocalTensor<float> kTile = kvQue.DeQue<float>();
            for (uint32_t r = 0; r < nRows; ++r) {
                Mul(tmp, kTile[r * headDim], qLocal, headDim);
                ReduceSum<float>(red, tmp, work, headDim);
                event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
                SetFlag<HardEvent::V_S>(evVS);
                WaitFlag<HardEvent::V_S>(evVS);
                scores.SetValue(r0 + r, red.GetValue(0) * scale);
                event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
                SetFlag<HardEvent::S_V>(evSV);
                WaitFlag<HardEvent::S_V>(evSV);
            }
            kvQue.FreeTensor(kTile);
        }
        qQue.FreeTensor(qLocal);

        // ---- phase 2: softmax numerator in place, keep the denominator ----
        ReduceMax<float>(red, scores, work, kvLen, false);
        event_t evMax = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evMax);
        WaitFlag<HardEvent::V_S>(evMax);
        float maxVal = red.GetValue(0);
        event_t evMaxBack = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evMaxBack);
        WaitFlag<HardEvent::S_V>(evMaxBack);

        Adds(scores, scores, -maxVal, kvLen);
        Exp(scores, scores, kvLen);
        ReduceSum<float>(red, scores, work, kvLen);
        event_t evSum = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evSum);
        WaitFlag<HardEvent::V_S>(evSum);
        float invSum = 1.0f / red.GetValue(0);

        // ---- phase 3: acc = sum_j p_j * v_j ----
        LocalTensor<float> acc = outQue.AllocTensor<float>();
        Duplicate(acc, 0.0f, headDim);
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t r0 = t * rowsPerTile;
            uint32_t nRows = (r0 + rowsPerTile <= kvLen) ? rowsPerTile : (kvLen - r0);
            LoadTile(vGm, kvBase + (uint64_t)r0 * headDim, nRows);
            LocalTensor<float> vTile = kvQue.DeQue<float>();
            for (uint32_t r = 0; r < nRows; ++r) {
                float p = scores.GetValue(r0 + r);
                Axpy(acc, vTile[r * headDim], p, headDim);
            }
            kvQue.FreeTensor(vTile);
        }
        Muls(acc, acc, invSum, headDim);
        outQue.EnQue(acc);

        LocalTensor<float> res = outQue.DeQue<float>();
        DataCopy(outGm[(uint64_t)row * headDim], res, headDim);
        outQue.FreeTensor(res);
    }

    __aicore__ inline void LoadTile(GlobalTensor<float>& src, uint64_t offset, uint32_t nRows)
    {
        LocalTensor<float> tile = kvQue.AllocTensor<float>();
        DataCopy(tile, src[offset], nRows * headDim);
        kvQue.EnQue(tile);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qQue;
    TQue<QuePosition::VECIN, BUFFER_NUM> kvQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> scoreBuf, tmpBuf, workBuf, redBuf;

    GlobalTensor<float> qGm, kGm, vGm, outGm;

    uint32_t qLen = 0;
    uint32_t kvLen = 0;
    uint32_t headDim = 0;
    uint32_t kvLenAlign = 0;
    uint32_t rowsPerTile = 1;
    uint32_t rowBegin = 0;
    uint32_t rowEnd = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void kv_cached_chat_batch_attention_custom(
    GM_ADDR q, GM_ADDR k_cache, GM_ADDR v_cache, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelKvCachedAttention op;
    op.Init(q, k_cache, v_cache, out, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor kv_cached_chat_batch_attention_custom_impl_npu(const at::Tensor& q,
                                                          const at::Tensor& k_cache,
                                                          const at::Tensor& v_cache)
{
    TORCH_CHECK(q.dim() == 3 && k_cache.dim() == 3 && v_cache.dim() == 3,
                "expected (batch, len, d_model) tensors");
    at::Tensor qc = q.contiguous();
    at::Tensor kc = k_cache.contiguous();
    at::Tensor vc = v_cache.contiguous();
    at::Tensor result = at::empty({qc.size(0), qc.size(1), vc.size(2)}, qc.options());
    EXEC_NPU_CMD(aclnnKvCachedChatBatchAttentionCustom, qc, kc, vc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("kv_cached_chat_batch_attention_custom", &kv_cached_chat_batch_attention_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("kv_cached_chat_batch_attention_custom", &kv_cached_chat_batch_attention_custom_impl_npu,
          "scaled dot product attention over a KV cache");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, Q, K_cache, V_cache):
        return custom_ops_lib.kv_cached_chat_batch_attention_custom(Q, K_cache, V_cache)
'''
