project_json_src='''
[
    {
        "op": "ScaledDotProductAttentionLongContextCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "scores",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "output_desc": [
            {
                "name": "probs",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
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
BEGIN_TILING_DATA_DEF(ScaledDotProductAttentionLongContextCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRem);
  TILING_DATA_FIELD_DEF(uint32_t, resident);   // 1: a whole row fits in UB
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);    // row length in UB (resident) or stream tile
  TILING_DATA_FIELD_DEF(uint32_t, workLen);    // scratch for ReduceMax / ReduceSum
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledDotProductAttentionLongContextCustom, ScaledDotProductAttentionLongContextCustomTilingData)
}
"""

host_operator_src="""
#include "scaled_dot_product_attention_long_context_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t RESIDENT_MAX_COLS = 16384;  // 64 KB per fp32 row
constexpr uint32_t STREAM_TILE = 8192;

static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaledDotProductAttentionLongContextCustomTilingData td;
    const auto& shp = context->GetInputShape(0)->GetStorageShape();
    size_t rank = shp.GetDimNum();
    uint32_t cols = shp.GetDim(rank - 1);
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        rows *= shp.GetDim(i);
    }

    float scale = 1.0f;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr) {
        const float* s = attrs->GetAttrPointer<float>(0);
        if (s != nullptr) scale = *s;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    if (cores > rows) cores = rows;

    uint32_t resident = cols <= RESIDENT_MAX_COLS ? 1 : 0;
    uint32_t tileLen = resident ? AlignUp(cols, 8) : STREAM_TILE;
    // one partial result per 64-float repeat, padded to a full block
    uint32_t workLen = AlignUp((tileLen + 63) / 64, 8) + 64;

    td.set_rows(rows);
    td.set_cols(cols);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsRem(rows % cores);
    td.set_resident(resident);
    td.set_tileLen(tileLen);
    td.set_workLen(workLen);
    td.set_scale(scale);

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
class ScaledDotProductAttentionLongContextCustom : public OpDef {
public:
    explicit ScaledDotProductAttentionLongContextCustom(const char* name) : OpDef(name)
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
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ScaledDotProductAttentionLongContextCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// Row softmax of (scale * S) for the attention score block S = Q_blk K^T.
// softmax(scale*s) = exp(scale*(s - max s)) / sum(...), valid because scale > 0.
class KernelScaledSoftmax {
public:
    __aicore__ inline KernelScaledSoftmax() {}

    __aicore__ inline void Init(GM_ADDR scores, GM_ADDR probs,
                                const ScaledDotProductAttentionLongContextCustomTilingData& td)
    {
        cols = td.cols;
        tileLen = td.tileLen;
        workLen = td.workLen;
        resident = td.resident;
        scale = td.scale;

        uint32_t blk = GetBlockIdx();
        rowNum = td.rowsPerCore + (blk < td.rowsRem ? 1 : 0);
        rowOff = blk * td.rowsPerCore + (blk < td.rowsRem ? blk : td.rowsRem);

        sGm.SetGlobalBuffer((__gm__ float*)scores);
        pGm.SetGlobalBuffer((__gm__ float*)probs);

        pipe.InitBuffer(inQ, 1, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, 1, tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, workLen * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowNum; ++r) {
            uint64_t base = static_cast<uint64_t>(rowOff + r) * cols;
            if (resident) {
                RowResident(base);
            } else {
                RowStreamed(base);
            }
        }
    }

private:
    __aicore__ inline void Load(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> x = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, sGm[gmOff], cp, pad);
        inQ.EnQue(x);
    }

    __aicore__ inline void Store(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<float> y = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPad(pGm[gmOff], y, cp);
        outQ.FreeTensor(y);
    }

    __aicore__ inline float ScalarOf(const LocalTensor<float>& t)
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return t.GetValue(0);
    }

    // y = exp(scale * (x - m))
    __aicore__ inline void ShiftedExp(LocalTensor<float>& y, LocalTensor<float>& x, float m, uint32_t len)
    {
        Adds(y, x, -m, len);
        Muls(y, y, scale, len);
        Exp(y, y, len);
    }

    // the whole row lives in UB: one read, one write
    __aicore__ inline void RowResident(uint64_t base)
    {
        Load(base, cols);
        LocalTensor<float> x = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        ReduceMax(red, x, work, cols, false);
        float m = ScalarOf(red);
        ShiftedExp(y, x, m, cols);
        ReduceSum(red, y, work, cols);
        float s = ScalarOf(red);
        Muls(y, y, 1.0f / s, cols);

        inQ.FreeTensor(x);
        outQ.EnQue(y);
        Store(base, cols);
    }

    // row too long for UB: max pass, sum pass, normalise pass
    __aicore__ inline void RowStreamed(uint64_t base)
    {
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        float m = -3.4e38f;
        for (uint32_t off = 0; off < cols; off += tileLen) {
            uint32_t len = (cols - off < tileLen) ? cols - off : tileLen;
            Load(base + off, len);
            LocalTensor<float> x = inQ.DeQue<float>();
            ReduceMax(red, x, work, len, false);
            float tm = ScalarOf(red);
            m = tm > m ? tm : m;
            inQ.FreeTensor(x);
        }

        float s = 0.0f;
        for (uint32_t off = 0; off < cols; off += tileLen) {
            uint32_t len = (cols - off < tileLen) ? cols - off : tileLen;
            Load(base + off, len);
            LocalTensor<float> x = inQ.DeQue<float>();
            ShiftedExp(x, x, m, len);
            ReduceSum(red, x, work, len);
            s += ScalarOf(red);
            inQ.FreeTensor(x);
        }

        float inv = 1.0f / s;
        for (uint32_t off = 0; off < cols; off += tileLen) {
            uint32_t len = (cols - off < tileLen) ? cols - off : tileLen;
            Load(base + off, len);
            LocalTensor<float> x = inQ.DeQue<float>();
            LocalTensor<float> y = outQ.AllocTensor<float>();
            ShiftedExp(y, x, m, len);
            Muls(y, y, inv, len);
            inQ.FreeTensor(x);
            outQ.EnQue(y);
            Store(base + off, len);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> workBuf;
    TBuf<QuePosition::VECCALC> redBuf;
    GlobalTensor<float> sGm, pGm;

    uint32_t cols = 0;
    uint32_t tileLen = 0;
    uint32_t workLen = 0;
    uint32_t resident = 1;
    uint32_t rowNum = 0;
    uint32_t rowOff = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void scaled_dot_product_attention_long_context_custom(
    GM_ADDR scores, GM_ADDR probs, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelScaledSoftmax op;
    op.Init(scores, probs, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <cmath>
#include <vector>
#include <algorithm>

// Attention = softmax(Q K^T / sqrt(d)) V, processed one block of queries at a time so that
// the (block x seq_len) score matrix stays bounded. The two GEMMs use the NPU matmul,
// the scaled row softmax runs in the custom kernel.
at::Tensor scaled_dot_product_attention_long_context_impl_npu(const at::Tensor& Q, const at::Tensor& K,
                                                               const at::Tensor& V)
{
    TORCH_CHECK(Q.dim() >= 2, "Q must be at least 2-D");
    const int64_t L = Q.size(-2);
    const int64_t D = Q.size(-1);
    double scale = 1.0 / std::sqrt(static_cast<double>(D));

    at::Tensor q = Q.contiguous();
    at::Tensor kT = K.transpose(-2, -1).contiguous();
    at::Tensor v = V.contiguous();
    std::vector<int64_t> outSizes = q.sizes().vec();
    outSizes.back() = v.size(-1);
    at::Tensor out = at::empty(outSizes, q.options());

    const int64_t QBLOCK = 2048;
    for (int64_t start = 0; start < L; start += QBLOCK) {
        int64_t len = std::min(QBLOCK, L - start);
        at::Tensor qBlk = q.narrow(-2, start, len);
        at::Tensor scores = at::matmul(qBlk, kT).contiguous();
        at::Tensor probs = at::empty_like(scores);
        EXEC_NPU_CMD(aclnnScaledDotProductAttentionLongContextCustom, scores, scale, probs);
        out.narrow(-2, start, len).copy_(at::matmul(probs, v));
    }
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scaled_dot_product_attention_long_context_custom", &scaled_dot_product_attention_long_context_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scaled_dot_product_attention_long_context_custom",
          &scaled_dot_product_attention_long_context_impl_npu,
          "blocked scaled dot-product attention with custom softmax");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, Q, K, V):
        return custom_ops_lib.scaled_dot_product_attention_long_context_custom(Q, K, V)
'''
