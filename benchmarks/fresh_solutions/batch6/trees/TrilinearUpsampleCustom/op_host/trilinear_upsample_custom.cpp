// host side: tiling, shape inference, op definition
#include "trilinear_upsample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline float Ratio(uint32_t in, uint32_t out)
{
    return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
}

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    const int64_t* sp = ctx->GetAttrs()->GetInt(0);
    uint32_t s = sp ? static_cast<uint32_t>(*sp) : 2;
    uint32_t nc = xs.GetDim(0) * xs.GetDim(1);
    uint32_t id = xs.GetDim(2), ih = xs.GetDim(3), iw = xs.GetDim(4);
    uint32_t od = id * s, oh = ih * s, ow = iw * s;
    uint32_t planes = nc * od;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t ppc = (planes + cores - 1) / cores;
    uint32_t used = (planes + ppc - 1) / ppc;

    TrilinearUpsampleCustomTilingData t;
    t.set_nc(nc);
    t.set_id(id);
    t.set_ih(ih);
    t.set_iw(iw);
    t.set_od(od);
    t.set_oh(oh);
    t.set_ow(ow);
    t.set_planes(planes);
    t.set_planesPerCore(ppc);
    t.set_rd(Ratio(id, od));
    t.set_rh(Ratio(ih, oh));
    t.set_rw(Ratio(iw, ow));
    ctx->SetBlockDim(used);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const int64_t* sp = ctx->GetAttrs()->GetInt(0);
    int64_t s = sp ? *sp : 2;
    gert::Shape* y = ctx->GetOutputShape(0);
    *y = *x;
    for (size_t i = 2; i < 5; i++) {
        y->SetDim(i, x->GetDim(i) * s);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class TrilinearUpsampleCustom : public OpDef {
public:
    explicit TrilinearUpsampleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Int(2);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TrilinearUpsampleCustom);
}
