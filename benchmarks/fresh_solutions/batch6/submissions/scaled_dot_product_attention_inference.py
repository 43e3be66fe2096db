project_json_src='''
[
    {
        "op": "ScaledDotProductAttentionInferenceCustom",
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
                "param_type": "required",
                "type": "float"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledDotProductAttentionInferenceCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // B * Lq
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);        // 每行长度 Lk
  TILING_DATA_FIELD_DEF(uint32_t, kvLenAlign);   // Lk 对齐到 8
  TILING_DATA_FIELD_DEF(uint32_t, baseRows);     // 每核基础行数
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);    // 前 extraRows 个核多 1 行
  TILING_DATA_FIELD_DEF(float, scale);           // 1/sqrt(d)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledDotProductAttentionInferenceCustom, ScaledDotProductAttentionInferenceCustomTilingData)
}
"""

host_operator_src="""
#include "scaled_dot_product_attention_inference_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 一行 scores 常驻 UB: 输入双缓冲 + 输出双缓冲 + 规约工作区, Lk 上限 8192
static constexpr uint32_t LK_LIMIT = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    ScaledDotProductAttentionInferenceCustomTilingData tiling;
    const gert::Shape& s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t rank = s.GetDimNum();
    uint32_t kvLen = static_cast<uint32_t>(s.GetDim(rank - 1));
    uint32_t rows = static_cast<uint32_t>(s.GetShapeSize() / kvLen);
    if (kvLen == 0 || kvLen > LK_LIMIT) {
        return ge::GRAPH_FAILED;
    }
    float scale = *ctx->GetAttrs()->GetAttrPointer<float>(0);

    auto platform = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aiv = platform.GetCoreNumAiv();
    uint32_t used = rows < aiv ? rows : aiv;
    if (used == 0) {
        used = 1;
    }

    tiling.set_totalRows(rows);
    tiling.set_kvLen(kvLen);
    tiling.set_kvLenAlign((kvLen + 7) / 8 * 8);
    tiling.set_baseRows(rows / used);
    tiling.set_extraRows(rows % used);
    tiling.set_scale(scale);

    ctx->SetBlockDim(used);
    tiling.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ScaledDotProductAttentionInferenceCustom : public OpDef {
public:
    explicit ScaledDotProductAttentionInferenceCustom(const char* name) : OpDef(name)
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
        this->Attr("scale").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ScaledDotProductAttentionInferenceCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

namespace {
constexpr int32_t DB = 2;   // double buffer
}

// 注意力中间的 "scale + 数值稳定 softmax" 一步:
//   p = exp(s * scale - max(s * scale)) / sum(...)
// QK^T 和 PV 两个大矩阵乘在 host 侧交给 cube (bmm), 这里逐行处理 [B*Lq, Lk] 的分数矩阵.
class ScaledSoftmaxKernel {
public:
    __aicore__ inline ScaledSoftmaxKernel() {}

    __aicore__ inline void Init(GM_ADDR scores, GM_ADDR probs,
                                const ScaledDotProductAttentionInferenceCustomTilingData& td)
    {
        len = td.kvLen;
        lenAlign = td.kvLenAlign;
        scale = td.scale;
        uint32_t core = AscendC::GetBlockIdx();
        rowNum = td.baseRows + (core < td.extraRows ? 1 : 0);
        uint32_t rowOff = core * td.baseRows + (core < td.extraRows ? core : td.extraRows);

        srcGm.SetGlobalBuffer((__gm__ float*)scores + (uint64_t)rowOff * len, (uint64_t)rowNum * len);
        dstGm.SetGlobalBuffer((__gm__ float*)probs + (uint64_t)rowOff * len, (uint64_t)rowNum * len);

        pipe.InitBuffer(qIn, DB, lenAlign * sizeof(float));
        pipe.InitBuffer(qOut, DB, lenAlign * sizeof(float));
        pipe.InitBuffer(workTmp, lenAlign * sizeof(float));
        pipe.InitBuffer(scalarTmp, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowNum; r++) {
            LoadRow(r);
            SoftmaxRow();
            StoreRow(r);
        }
    }

private:
    __aicore__ inline void LoadRow(uint32_t r)
    {
        AscendC::LocalTensor<float> buf = qIn.AllocTensor<float>();
        AscendC::DataCopyExtParams prm{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padPrm{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(buf, srcGm[(uint64_t)r * len], prm, padPrm);
        qIn.EnQue(buf);
    }

    // 把 V 流水上的结果读成标量: 需要 V -> S 同步
    __aicore__ inline float ReadScalar(const AscendC::LocalTensor<float>& t)
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        float v = t.GetValue(0);
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev2);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev2);
        return v;
    }

    __aicore__ inline void SoftmaxRow()
    {
        AscendC::LocalTensor<float> s = qIn.DeQue<float>();
        AscendC::LocalTensor<float> p = qOut.AllocTensor<float>();
        AscendC::LocalTensor<float> work = workTmp.Get<float>();
        AscendC::LocalTensor<float> red = scalarTmp.Get<float>();

        // s *= scale
        AscendC::Muls(s, s, scale, len);
        AscendC::PipeBarrier<PIPE_V>();
        // 行最大值
        AscendC::ReduceMax<float>(red, s, work, len, false);
        float rowMax = ReadScalar(red);
        // exp(s - max)
        AscendC::Adds(p, s, -rowMax, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(p, p, len);
        AscendC::PipeBarrier<PIPE_V>();
        // 行求和
        AscendC::ReduceSum<float>(red, p, work, len);
        float rowSum = ReadScalar(red);
        AscendC::Muls(p, p, 1.0f / rowSum, len);

        qOut.EnQue(p);
        qIn.FreeTensor(s);
    }

    __aicore__ inline void StoreRow(uint32_t r)
    {
        AscendC::LocalTensor<float> p = qOut.DeQue<float>();
        AscendC::DataCopyExtParams prm{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(dstGm[(uint64_t)r * len], p, prm);
        qOut.FreeTensor(p);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, DB> qIn;
    AscendC::TQue<AscendC::QuePosition::VECOUT, DB> qOut;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workTmp, scalarTmp;
    AscendC::GlobalTensor<float> srcGm, dstGm;
    uint32_t len = 0, lenAlign = 0, rowNum = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void scaled_dot_product_attention_inference_custom(
    GM_ADDR scores, GM_ADDR probs, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ScaledSoftmaxKernel kernel;
    kernel.Init(scores, probs, td);
    kernel.Process();
}
"""

python_bind_src="""
#include <cmath>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// SDPA 推理: out = softmax(Q K^T / sqrt(d)) V
// 两个 GEMM 用 bmm 走 cube, 中间的 scale + softmax 用自定义向量算子.
at::Tensor scaled_dot_product_attention_inference_impl_npu(const at::Tensor& q, const at::Tensor& k,
                                                           const at::Tensor& v)
{
    TORCH_CHECK(q.dim() == 3 && k.dim() == 3 && v.dim() == 3, "expect [B, L, D] inputs");
    double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
    at::Tensor scores = at::bmm(q, k.transpose(1, 2)).contiguous();   // [B, Lq, Lk]
    at::Tensor probs = at::empty_like(scores);
    EXEC_NPU_CMD(aclnnScaledDotProductAttentionInferenceCustom, scores, scale, probs);
    return at::bmm(probs, v);                                          // [B, Lq, Dv]
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scaled_dot_product_attention_inference_custom", &scaled_dot_product_attention_inference_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scaled_dot_product_attention_inference_custom", &scaled_dot_product_attention_inference_impl_npu,
          "scaled dot product attention (inference)");
}
"""
