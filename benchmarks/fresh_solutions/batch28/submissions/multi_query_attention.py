project_json_src='''
[
    {
        "op": "MultiQueryAttentionCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "scores",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "probs",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "attr": [
            {
                "name": "scale",
                "param_type": "optional",
                "type": "float",
                "default_value": "1.0"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MultiQueryAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowNum);        // number of softmax rows
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);        // keys per row
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // elements per UB tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, singlePass);    // 1 if a full row fits in one tile
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MultiQueryAttentionCustom, MultiQueryAttentionCustomTilingData)
}
"""

host_operator_src="""
#include "multi_query_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;   // floats; in/out double buffers + work fit easily in UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MultiQueryAttentionCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t dimNum = shape.GetDimNum();
    if (dimNum < 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowLen = shape.GetDim(dimNum - 1);
    uint32_t rowNum = 1;
    for (uint32_t i = 0; i + 1 < dimNum; ++i) {
        rowNum *= shape.GetDim(i);
    }
    const float* scalePtr = context->GetAttrs()->GetAttrPointer<float>(0);
    float scale = scalePtr == nullptr ? 1.0f : *scalePtr;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t usedCores = rowNum < coreNum ? rowNum : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    uint32_t alignedLen = (rowLen + 7) / 8 * 8;
    uint32_t singlePass = alignedLen <= MAX_TILE ? 1 : 0;
    uint32_t tileLen = singlePass ? alignedLen : MAX_TILE;

    tiling.set_rowNum(rowNum);
    tiling.set_rowLen(rowLen);
    tiling.set_rowsPerCore(rowNum / usedCores);
    tiling.set_tailRows(rowNum % usedCores);
    tiling.set_tileLen(tileLen);
    tiling.set_singlePass(singlePass);
    tiling.set_scale(scale);

    context->SetBlockDim(usedCores);
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
class MultiQueryAttentionCustom : public OpDef {
public:
    explicit MultiQueryAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("scores")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("probs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MultiQueryAttentionCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Row-wise scaled softmax: probs[r, :] = softmax(scale * scores[r, :]).
// Rows are the (query, head) pairs of MQA; since K/V are shared across heads,
// every head of every query attends over the same key sequence.
class KernelMqaSoftmax {
public:
    __aicore__ inline KernelMqaSoftmax() {}

    __aicore__ inline void Init(GM_ADDR scores, GM_ADDR probs, uint32_t rowLen, uint32_t rowsPerCore,
                                uint32_t tailRows, uint32_t tileLen, uint32_t singlePass, float scale)
    {
        this->rowLen = rowLen;
        this->tileLen = tileLen;
        this->singlePass = singlePass;
        this->scale = scale;

        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < tailRows) {
            rowCount = rowsPerCore + 1;
            rowStart = blockIdx * (rowsPerCore + 1);
        } else {
            rowCount = rowsPerCore;
            rowStart = tailRows * (rowsPerCore + 1) + (blockIdx - tailRows) * rowsPerCore;
        }

        inGm.SetGlobalBuffer((__gm__ float*)scores);
        outGm.SetGlobalBuffer((__gm__ float*)probs);

        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, tileLen * sizeof(float));
        pipe.InitBuffer(reduceBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t rowOffset = static_cast<uint64_t>(rowStart + r) * rowLen;
            if (singlePass) {
                ProcessRowInUb(rowOffset);
            } else {
                ProcessRowTiled(rowOffset);
            }
        }
    }

private:
    __aicore__ inline void SyncVToS()
    {
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
    }

    __aicore__ inline void LoadTile(uint64_t gmOffset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, inGm[gmOffset], params, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void StoreTile(uint64_t gmOffset, uint32_t len)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm[gmOffset], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    // Whole row resident in UB: one read, one write.
    __aicore__ inline void ProcessRowInUb(uint64_t rowOffset)
    {
        LoadTile(rowOffset, rowLen);
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = reduceBuf.Get<float>();

        Muls(xLocal, xLocal, scale, rowLen);
        ReduceMax(red, xLocal, work, rowLen, false);
        SyncVToS();
        float rowMax = red.GetValue(0);

        Adds(xLocal, xLocal, -rowMax, rowLen);
        Exp(yLocal, xLocal, rowLen);
        ReduceSum(red, yLocal, work, rowLen);
        SyncVToS();
        float rowSum = red.GetValue(0);

        Muls(yLocal, yLocal, 1.0f / rowSum, rowLen);
        inQueue.FreeTensor(xLocal);
        outQueue.EnQue<float>(yLocal);
        StoreTile(rowOffset, rowLen);
    }

    // Long rows: online max/sum in a first sweep, normalized exp in a second.
    __aicore__ inline void ProcessRowTiled(uint64_t rowOffset)
    {
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = reduceBuf.Get<float>();
        uint32_t tiles = (rowLen + tileLen - 1) / tileLen;
        float runMax = -3.402823466e+38f;
        float runSum = 0.0f;

        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t off = t * tileLen;
            uint32_t len = rowLen - off < tileLen ? rowLen - off : tileLen;
            LoadTile(rowOffset + off, len);
            LocalTensor<float> xLocal = inQueue.DeQue<float>();
            Muls(xLocal, xLocal, scale, len);
            ReduceMax(red, xLocal, work, len, false);
            SyncVToS();
            float tileMax = red.GetValue(0);
            float newMax = tileMax > runMax ? tileMax : runMax;

            Adds(xLocal, xLocal, -newMax, len);
            Exp(xLocal, xLocal, len);
            ReduceSum(red, xLocal, work, len);
            // rescale the previous partial sum to the new max
            Duplicate(work, runMax - newMax, 8);
            Exp(work, work, 8);
            SyncVToS();
            float tileSum = red.GetValue(0);
            float corr = work.GetValue(0);
            runSum = runSum * corr + tileSum;
            runMax = newMax;
            inQueue.FreeTensor(xLocal);
        }

        float invSum = 1.0f / runSum;
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t off = t * tileLen;
            uint32_t len = rowLen - off < tileLen ? rowLen - off : tileLen;
            LoadTile(rowOffset + off, len);
            LocalTensor<float> xLocal = inQueue.DeQue<float>();
            LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            Muls(xLocal, xLocal, scale, len);
            Adds(xLocal, xLocal, -runMax, len);
            Exp(yLocal, xLocal, len);
            Muls(yLocal, yLocal, invSum, len);
            inQueue.FreeTensor(xLocal);
            outQueue.EnQue<float>(yLocal);
            StoreTile(rowOffset + off, len);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> workBuf;
    TBuf<QuePosition::VECCALC> reduceBuf;
    GlobalTensor<float> inGm;
    GlobalTensor<float> outGm;
    uint32_t rowLen;
    uint32_t tileLen;
    uint32_t singlePass;
    uint32_t rowStart;
    uint32_t rowCount;
    float scale;
};

extern "C" __global__ __aicore__ void multi_query_attention_custom(GM_ADDR scores, GM_ADDR probs,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMqaSoftmax op;
    op.Init(scores, probs, tilingData.rowLen, tilingData.rowsPerCore, tilingData.tailRows,
            tilingData.tileLen, tilingData.singlePass, tilingData.scale);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>

// Projections and the two attention matmuls go through the NPU matmul path;
// the scaled softmax over keys is the custom kernel. Queries are processed in
// chunks so the (rows x keys) score buffer stays bounded.
at::Tensor multi_query_attention_custom_impl_npu(const at::Tensor& x,
                                                 const at::Tensor& wq, const at::Tensor& bq,
                                                 const at::Tensor& wk, const at::Tensor& bk,
                                                 const at::Tensor& wv, const at::Tensor& bv,
                                                 const at::Tensor& wo, const at::Tensor& bo,
                                                 int64_t num_heads)
{
    TORCH_CHECK(x.dim() == 3, "x must be (B, N, D)");
    const int64_t B = x.size(0);
    const int64_t N = x.size(1);
    const int64_t D = x.size(2);
    const int64_t H = num_heads;
    TORCH_CHECK(D % H == 0, "d_model must be divisible by num_heads");
    const int64_t dh = D / H;
    double scale = 1.0 / std::sqrt(static_cast<double>(dh));

    at::Tensor q = at::linear(x, wq, bq);                  // (B, N, D)
    at::Tensor k = at::linear(x, wk, bk);                  // (B, N, dh), shared by all heads
    at::Tensor v = at::linear(x, wv, bv);                  // (B, N, dh)
    at::Tensor kt = k.transpose(1, 2).contiguous();        // (B, dh, N)

    at::Tensor ctx = at::empty({B, N * H, dh}, x.options());
    const int64_t qChunk = 256;                            // query positions per chunk
    for (int64_t b = 0; b < B; ++b) {
        at::Tensor qb = q[b].reshape({N * H, dh});         // row = n * H + h
        at::Tensor ktb = kt[b];
        at::Tensor vb = v[b];
        for (int64_t n0 = 0; n0 < N; n0 += qChunk) {
            int64_t n1 = std::min(N, n0 + qChunk);
            at::Tensor qs = qb.slice(0, n0 * H, n1 * H);
            at::Tensor scores = at::matmul(qs, ktb).contiguous();   // (rows, N)
            at::Tensor probs = at::empty_like(scores);
            EXEC_NPU_CMD(aclnnMultiQueryAttentionCustom, scores, scale, probs);
            ctx[b].slice(0, n0 * H, n1 * H).copy_(at::matmul(probs, vb));
        }
    }
    at::Tensor out = ctx.view({B, N, D});
    return at::linear(out, wo, bo);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("multi_query_attention_custom", &multi_query_attention_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("multi_query_attention_custom", &multi_query_attention_custom_impl_npu,
          "multi-query attention with custom softmax kernel");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, d_model=4096, num_heads=32):
        super().__init__()
        self.q_proj = torch.nn.Linear(d_model, d_model)
        self.k_proj = torch.nn.Linear(d_model, d_model // num_heads)
        self.v_proj = torch.nn.Linear(d_model, d_model // num_heads)
        self.out_proj = torch.nn.Linear(d_model, d_model)
        self.num_heads = num_heads

    def forward(self, x):
        return custom_ops_lib.multi_query_attention_custom(
            x,
            self.q_proj.weight, self.q_proj.bias,
            self.k_proj.weight, self.k_proj.bias,
            self.v_proj.weight, self.v_proj.bias,
            self.out_proj.weight, self.out_proj.bias,
            self.num_heads)
'''
