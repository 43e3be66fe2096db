project_json_src='''
[
    {
        "op": "KvCachedAttentionInferenceCustom",
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
BEGIN_TILING_DATA_DEF(KvCachedAttentionInferenceCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, qLen);
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);
  TILING_DATA_FIELD_DEF(uint32_t, dModel);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // K rows scored by one core (phase 1)
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);   // output columns produced by one core (phase 2)
  TILING_DATA_FIELD_DEF(uint32_t, vTileRows);     // V rows staged in UB at once (phase 2)
  TILING_DATA_FIELD_DEF(float, scale);            // 1 / sqrt(dModel)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(KvCachedAttentionInferenceCustom, KvCachedAttentionInferenceCustomTilingData)
}
"""

host_operator_src="""
#include <cmath>
#include "kv_cached_attention_inference_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    KvCachedAttentionInferenceCustomTilingData tiling;
    const gert::Shape qShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape kShape = context->GetInputShape(1)->GetStorageShape();

    uint32_t batch = static_cast<uint32_t>(qShape.GetDim(0));
    uint32_t qLen = static_cast<uint32_t>(qShape.GetDim(1));
    uint32_t dModel = static_cast<uint32_t>(qShape.GetDim(2));
    uint32_t kvLen = static_cast<uint32_t>(kShape.GetDim(1));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum > 32) {
        coreNum = 32;
    }
    // Both the KV rows (phase 1) and the output columns (phase 2, multiple of 8 floats)
    // have to split evenly over the cores.
    while (coreNum > 1 && ((kvLen % coreNum) != 0 || (dModel % (coreNum * 8)) != 0)) {
        coreNum--;
    }
    uint32_t rowsPerCore = kvLen / coreNum;
    uint32_t colsPerCore = dModel / coreNum;

    // keep a V tile at about 32KB
    uint32_t vTileRows = (32 * 1024) / (colsPerCore * sizeof(float));
    if (vTileRows == 0) {
        vTileRows = 1;
    }
    while (vTileRows > 1 && (kvLen % vTileRows) != 0) {
        vTileRows--;
    }

    tiling.set_batch(batch);
    tiling.set_qLen(qLen);
    tiling.set_kvLen(kvLen);
    tiling.set_dModel(dModel);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_colsPerCore(colsPerCore);
    tiling.set_vTileRows(vTileRows);
    tiling.set_scale(1.0f / std::sqrt(static_cast<float>(dModel)));

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // system workspace (needed by SyncAll) + one row of attention scores
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(kvLen) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* qShape = context->GetInputShape(0);
    const gert::Shape* vShape = context->GetInputShape(2);
    gert::Shape* outShape = context->GetOutputShape(0);
    *outShape = *qShape;
    outShape->SetDim(2, vShape->GetDim(2));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class KvCachedAttentionInferenceCustom : public OpDef {
public:
    explicit KvCachedAttentionInferenceCustom(const char* name) : OpDef(name)
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

OP_ADD(KvCachedAttentionInferenceCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Decode-style attention: q has very few rows, K/V are long.
// Phase 1: every core scores a contiguous slice of KV rows (q . k_j * scale) -> workspace.
// SyncAll.
// Phase 2: every core reads the full score row, does the softmax locally and
//          accumulates p_j * V[j, cols] for its own slice of output columns.
class KernelKvCachedAttention {
public:
    __aicore__ inline KernelKvCachedAttention() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out, GM_ADDR usrWs,
                                const KvCachedAttentionInferenceCustomTilingData &t)
    {
        batch = t.batch;
        qLen = t.qLen;
        kvLen = t.kvLen;
        dModel = t.dModel;
        rowsPerCore = t.rowsPerCore;
        colsPerCore = t.colsPerCore;
        vTileRows = t.vTileRows;
        scale = t.scale;
        coreIdx = GetBlockIdx();

        qGm.SetGlobalBuffer((__gm__ float *)q, batch * qLen * dModel);
        kGm.SetGlobalBuffer((__gm__ float *)k, batch * kvLen * dModel);
        vGm.SetGlobalBuffer((__gm__ float *)v, batch * kvLen * dModel);
        oGm.SetGlobalBuffer((__gm__ float *)out, batch * qLen * dModel);
        scoreGm.SetGlobalBuffer((__gm__ float *)usrWs, kvLen);

        pipe.InitBuffer(kQueue, BUFFER_NUM, dModel * sizeof(float));
        pipe.InitBuffer(vQueue, BUFFER_NUM, vTileRows * colsPerCore * sizeof(float));
        pipe.InitBuffer(qBuf, dModel * sizeof(float));
        pipe.InitBuffer(prodBuf, dModel * sizeof(float));
        pipe.InitBuffer(scoreBuf, kvLen * sizeof(float));
        pipe.InitBuffer(accBuf, colsPerCore * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, ((kvLen > dModel ? kvLen : dModel) / 8 + 64) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t b = 0; b < batch; ++b) {
            for (uint32_t qi = 0; qi < qLen; ++qi) {
                ScoreRows(b, qi);
                PipeBarrier<PIPE_ALL>();
                SyncAll();
                SoftmaxAndWeightedSum(b, qi);
                PipeBarrier<PIPE_ALL>();
                SyncAll();   // workspace is reused by the next query row
            }
        }
    }

private:
    __aicore__ inline void ScoreRows(uint32_t b, uint32_t qi)
    {
        LocalTensor<float> qLocal = qBuf.Get<float>();
        LocalTensor<float> prod = prodBuf.Get<float>();
        LocalTensor<float> scores = scoreBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();

        DataCopy(qLocal, qGm[(b * qLen + qi) * dModel], dModel);
        PipeBarrier<PIPE_ALL>();

        uint32_t rowBase = coreIdx * rowsPerCore;
        uint64_t kBase = static_cast<uint64_t>(b) * kvLen * dModel;
        for (uint32_t j = 0; j < rowsPerCore; ++j) {
            LocalTensor<float> kRow = kQueue.AllocTensor<float>();
            DataCopy(kRow, kGm[kBase + static_cast<uint64_t>(rowBase + j) * dModel], dModel);
            kQueue.EnQue(kRow);

            kRow = kQueue.DeQue<float>();
            Mul(prod, kRow, qLocal, dModel);
            ReduceSum<float>(red, prod, work, dModel);
            kQueue.FreeTensor(kRow);

            event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            float s = red.GetValue(0);
            scores.SetValue(j, s * scale);
        }

        event_t evSM = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evSM);
        WaitFlag<HardEvent::S_MTE3>(evSM);
        DataCopy(scoreGm[rowBase], scores, rowsPerCore);
    }

    __aicore__ inline void SoftmaxAndWeightedSum(uint32_t b, uint32_t qi)
    {
        LocalTensor<float> p = scoreBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();

        DataCopy(p, scoreGm, kvLen);
        PipeBarrier<PIPE_ALL>();

        // numerically stable softmax over the whole score row
        ReduceMax<float>(red, p, work, kvLen);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float maxVal = red.GetValue(0);
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);

        Adds(p, p, -maxVal, kvLen);
        Exp(p, p, kvLen);
        ReduceSum<float>(red, p, work, kvLen);
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float inv = 1.0f / red.GetValue(0);
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        Muls(p, p, inv, kvLen);
        Duplicate(acc, 0.0f, colsPerCore);
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);

        // out[c0:c0+colsPerCore] = sum_j p_j * V[j, c0:c0+colsPerCore]
        uint32_t colBase = coreIdx * colsPerCore;
        uint64_t vBase = static_cast<uint64_t>(b) * kvLen * dModel + colBase;
        DataCopyParams cp;
        cp.blockCount = static_cast<uint16_t>(vTileRows);
        cp.blockLen = static_cast<uint16_t>(colsPerCore * sizeof(float) / 32);
        cp.srcStride = static_cast<uint16_t>((dModel - colsPerCore) * sizeof(float) / 32);
        cp.dstStride = 0;

        uint32_t tiles = kvLen / vTileRows;
        for (uint32_t t = 0; t < tiles; ++t) {
            LocalTensor<float> vTile = vQueue.AllocTensor<float>();
            DataCopy(vTile, vGm[vBase + static_cast<uint64_t>(t) * vTileRows * dModel], cp);
            vQueue.EnQue(vTile);

            vTile = vQueue.DeQue<float>();
            for (uint32_t r = 0; r < vTileRows; ++r) {
                float w = p.GetValue(t * vTileRows + r);
                Axpy(acc, vTile[r * colsPerCore], w, colsPerCore);
            }
            vQueue.FreeTensor(vTile);
        }

        event_t evVM = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(evVM);
        WaitFlag<HardEvent::V_MTE3>(evVM);
        DataCopy(oGm[(b * qLen + qi) * dModel + colBase], acc, colsPerCore);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> kQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> vQueue;
    TBuf<TPosition::VECCALC> qBuf, prodBuf, scoreBuf, accBuf, redBuf, workBuf;
    GlobalTensor<float> qGm, kGm, vGm, oGm, scoreGm;
    uint32_t batch, qLen, kvLen, dModel;
    uint32_t rowsPerCore, colsPerCore, vTileRows, coreIdx;
    float scale;
};

extern "C" __global__ __aicore__ void kv_cached_attention_inference_custom(GM_ADDR q, GM_ADDR k_cache, GM_ADDR v_cache,
                                                                          GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    KernelKvCachedAttention op;
    op.Init(q, k_cache, v_cache, out, usrWs, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor kv_cached_attention_inference_custom_impl_npu(const at::Tensor& q, const at::Tensor& k_cache,
                                                        const at::Tensor& v_cache)
{
    TORCH_CHECK(q.dim() == 3 && k_cache.dim() == 3 && v_cache.dim() == 3, "expected (B, L, D) tensors");
    at::Tensor qc = q.contiguous();
    at::Tensor kc = k_cache.contiguous();
    at::Tensor vc = v_cache.contiguous();
    at::Tensor out = at::empty({qc.size(0), qc.size(1), vc.size(2)}, qc.options());
    EXEC_NPU_CMD(aclnnKvCachedAttentionInferenceCustom, qc, kc, vc, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("kv_cached_attention_inference_custom", &kv_cached_attention_inference_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("kv_cached_attention_inference_custom", &kv_cached_attention_inference_custom_impl_npu,
          "scaled dot product attention against a KV cache");
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
        return custom_ops_lib.kv_cached_attention_inference_custom(Q, K_cache, V_cache)
'''
