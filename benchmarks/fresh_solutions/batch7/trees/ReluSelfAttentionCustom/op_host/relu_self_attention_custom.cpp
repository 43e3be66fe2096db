#include <cmath>
#include "relu_self_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
constexpr uint32_t BLOCK_M = 128;
constexpr uint32_t VEC_ROW_BYTES_BUDGET = 64 * 1024;

static inline uint32_t AlignUp(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    // q, k, v: (B*nh, T, hs)
    const auto &qs = context->GetInputShape(0)->GetStorageShape();
    uint32_t bh = qs.GetDim(0);
    uint32_t T = qs.GetDim(1);
    uint32_t hs = qs.GetDim(2);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = platform.GetCoreNumAic();
    uint32_t aivNum = platform.GetCoreNumAiv();

    uint32_t bm = T < BLOCK_M ? T : BLOCK_M;
    uint32_t stride = AlignUp(T, 64);   // keep every score row 256B aligned

    ReluSelfAttentionCustomTilingData tiling;

    // each AIV runs an independent single-core matmul on its own (head, row block) task
    MatmulApiTiling qk(platform);
    qk.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    qk.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    qk.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    qk.SetShape(bm, T, hs);
    qk.SetOrgShape(bm, stride, hs);
    qk.SetBias(false);
    qk.SetBufferSpace(-1, -1, -1);
    if (qk.GetTiling(tiling.qkTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    MatmulApiTiling pv(platform);
    pv.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    pv.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    pv.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    pv.SetShape(bm, hs, T);
    pv.SetOrgShape(bm, hs, stride, T);   // A row stride = score stride, B is (T, hs)
    pv.SetBias(false);
    pv.SetBufferSpace(-1, -1, -1);
    if (pv.GetTiling(tiling.pvTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t vecRows = VEC_ROW_BYTES_BUDGET / (stride * sizeof(float));
    if (vecRows == 0) vecRows = 1;
    if (vecRows > bm) vecRows = bm;

    tiling.set_batchHeads(bh);
    tiling.set_seqLen(T);
    tiling.set_headDim(hs);
    tiling.set_blockM(bm);
    tiling.set_qBlocks((T + bm - 1) / bm);
    tiling.set_vecRows(vecRows);
    tiling.set_scoreStride(stride);
    tiling.set_scale(1.0f / std::sqrt(static_cast<float>(hs)));

    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // per-AIV scratch for one bm x T score block, plus the library workspace
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize()) +
            static_cast<size_t>(aivNum) * bm * stride * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ReluSelfAttentionCustom : public OpDef {
public:
    explicit ReluSelfAttentionCustom(const char *name) : OpDef(name)
    {
        this->Input("q")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ReluSelfAttentionCustom);
} // namespace ops
