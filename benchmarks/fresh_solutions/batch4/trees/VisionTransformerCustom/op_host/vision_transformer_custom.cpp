// host side: tiling, shape inference, op registration
#include "vision_transformer_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *ctx)
{
    VisionTransformerCustomTilingData t;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t nd = s.GetDimNum();
    uint32_t cols = s.GetDim(nd - 1);
    uint32_t rows = s.GetShapeSize() / cols;
    const float *eps = ctx->GetAttrs()->GetFloat(0);
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t ca = (cols + 7) / 8 * 8;
    uint64_t fixed = (4ULL * ca + 64) * sizeof(float);
    uint32_t tr = static_cast<uint32_t>((ub - fixed - 1024) / (6ULL * ca * sizeof(float)));
    uint32_t rpc = (rows + cores - 1) / cores;
    if (tr > rpc) tr = rpc;
    if (tr > 16) tr = 16;
    if (tr == 0) tr = 1;
    t.set_rows(rows);
    t.set_cols(cols);
    t.set_tileRows(tr);
    t.set_eps(eps == nullptr ? 1e-5f : *eps);
    ctx->SetBlockDim(rows < cores ? rows : cores);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class VisionTransformerCustom : public OpDef {
public:
    explicit VisionTransformerCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("residual").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VisionTransformerCustom);
}
