// host side: tiling, shape inference, op registration
#include "mobilenet_v1_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Al(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext *ctx)
{
    MobilenetV1CustomTilingData t;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1), h = s.GetDim(2), w = s.GetDim(3);
    uint32_t st = static_cast<uint32_t>(*ctx->GetAttrs()->GetInt(0));
    bool relu = *ctx->GetAttrs()->GetBool(1);
    uint32_t ho = (h + 2 - 3) / st + 1, wo = (w + 2 - 3) / st + 1;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t wa = Al(w, 8), woa = Al(wo, 8), acc = Al(w, 64);
    uint32_t r = ho < 32 ? ho : 32;
    while (r > 1) {
        uint32_t ni = (r - 1) * st + 3;
        uint64_t need = (2ULL * 3 * ni * wa + 2ULL * (r * woa + 64) + acc) * sizeof(float) + 2048;
        if (need <= ub) break;
        r--;
    }
    uint32_t bpp = (ho + r - 1) / r;
    uint32_t tot = n * c * bpp;
    t.set_c(c);
    t.set_h(h);
    t.set_w(w);
    t.set_ho(ho);
    t.set_wo(wo);
    t.set_stride(st);
    t.set_relu(relu ? 1 : 0);
    t.set_bandRows(r);
    t.set_bandsPerPlane(bpp);
    t.set_totalBands(tot);
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
    int64_t st = *ctx->GetAttrs()->GetInt(0);
    *y = *x;
    y->SetDim(2, (x->GetDim(2) - 1) / st + 1);
    y->SetDim(3, (x->GetDim(3) - 1) / st + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class MobilenetV1Custom : public OpDef {
public:
    explicit MobilenetV1Custom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").Int();
        this->Attr("relu").Bool();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MobilenetV1Custom);
}
