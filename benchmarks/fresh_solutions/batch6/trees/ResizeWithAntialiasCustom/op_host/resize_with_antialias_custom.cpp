#include <cmath>
#include "resize_with_antialias_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t align8(uint32_t v) { return (v + 7U) / 8U * 8U; }

// bilinear filter has interp_size 2 -> support = 1 (x scale when downsampling)
static inline float aa_support(float scale) { return scale >= 1.0f ? scale : 1.0f; }
static inline uint32_t aa_taps(float support) { return static_cast<uint32_t>(std::ceil(support)) * 2U + 1U; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ResizeWithAntialiasCustomTilingData tiling;
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    auto attrs = context->GetAttrs();
    uint32_t oh = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t ow = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t nc = xs.GetDim(0) * xs.GetDim(1);
    uint32_t ih = xs.GetDim(2);
    uint32_t iw = xs.GetDim(3);
    if (oh == 0 || ow == 0) {
        return ge::GRAPH_FAILED;
    }

    float scale_h = static_cast<float>(ih) / static_cast<float>(oh);
    float scale_w = static_cast<float>(iw) / static_cast<float>(ow);
    float sup_h = aa_support(scale_h);
    float sup_w = aa_support(scale_w);
    uint32_t taps_h = aa_taps(sup_h);
    uint32_t taps_w = aa_taps(sup_w);
    if (taps_h > 16 || taps_w > 16) {
        return ge::GRAPH_FAILED;   // kernel keeps per-row weights on the stack
    }

    uint32_t row_total = nc * oh;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk_num = plat.GetCoreNumAiv();
    if (blk_num > row_total) {
        blk_num = row_total;
    }
    if (blk_num == 0) {
        blk_num = 1;
    }
    uint32_t rows_per_core = (row_total + blk_num - 1) / blk_num;
    blk_num = (row_total + rows_per_core - 1) / rows_per_core;

    tiling.set_nc(nc);
    tiling.set_ih(ih);
    tiling.set_iw(iw);
    tiling.set_oh(oh);
    tiling.set_ow(ow);
    tiling.set_iw_al(align8(iw));
    tiling.set_ow_al(align8(ow));
    tiling.set_taps_h(taps_h);
    tiling.set_taps_w(taps_w);
    tiling.set_scale_h(scale_h);
    tiling.set_scale_w(scale_w);
    tiling.set_sup_h(sup_h);
    tiling.set_sup_w(sup_w);
    tiling.set_row_total(row_total);
    tiling.set_rows_per_core(rows_per_core);

    context->SetBlockDim(blk_num);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    gert::Shape *ys = context->GetOutputShape(0);
    auto attrs = context->GetAttrs();
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, *attrs->GetInt(0));
    ys->SetDim(3, *attrs->GetInt(1));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ResizeWithAntialiasCustom : public OpDef {
public:
    explicit ResizeWithAntialiasCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("out_h").AttrType(OPTIONAL).Int(128);
        this->Attr("out_w").AttrType(OPTIONAL).Int(128);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ResizeWithAntialiasCustom);
} // namespace ops
