// host side: tiling, shape inference, op registration
#include "mean_reduction_over_a_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *ctx)
{
    MeanReductionOverADimensionCustomTilingData t;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    int64_t nd = s.GetDimNum();
    int64_t dim = *ctx->GetAttrs()->GetInt(0);
    if (dim < 0) dim += nd;
    if (dim < 0 || dim >= nd) return ge::GRAPH_FAILED;
    uint64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; i++) outer *= s.GetDim(i);
    for (int64_t i = dim + 1; i < nd; i++) inner *= s.GetDim(i);
    uint32_t rlen = s.GetDim(dim);
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t mode = inner == 1 ? 1 : 0;
    uint32_t tl, rb, tpo, tot;
    if (mode == 0) {
        tl = static_cast<uint32_t>((inner + 7) / 8 * 8);
        if (tl > 2048) tl = 2048;
        rb = static_cast<uint32_t>((ub - 4 * tl * sizeof(float) - 1024) / (2 * tl * sizeof(float)));
        if (rb > rlen) rb = rlen;
        if (rb > 64) rb = 64;
        if (rb == 0) rb = 1;
        tpo = static_cast<uint32_t>((inner + tl - 1) / tl);
        tot = static_cast<uint32_t>(outer) * tpo;
    } else {
        tl = (rlen + 7) / 8 * 8;
        if (tl > 8192) tl = 8192;
        rb = 64;
        tpo = 1;
        tot = static_cast<uint32_t>(outer);
    }
    t.set_outer(static_cast<uint32_t>(outer));
    t.set_rlen(rlen);
    t.set_inner(static_cast<uint32_t>(inner));
    t.set_tileLen(tl);
    t.set_rowBatch(rb);
    t.set_tilesPerOuter(tpo);
    t.set_totalTiles(tot);
    t.set_mode(mode);
    ctx->SetBlockDim(tot < cores ? tot : cores);
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
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    int64_t nd = x->GetDimNum();
    int64_t dim = *ctx->GetAttrs()->GetInt(0);
    if (dim < 0) dim += nd;
    y->SetDimNum(nd - 1);
    for (int64_t i = 0, j = 0; i < nd; i++) {
        if (i != dim) y->SetDim(j++, x->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class MeanReductionOverADimensionCustom : public OpDef {
public:
    explicit MeanReductionOverADimensionCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("dim").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MeanReductionOverADimensionCustom);
}
