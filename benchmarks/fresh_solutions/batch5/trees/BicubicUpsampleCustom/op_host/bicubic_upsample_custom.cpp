#include "bicubic_upsample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BicubicUpsampleCustomTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto attrs = context->GetAttrs();
    uint32_t outH = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t outW = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t inH = xs.GetDim(2), inW = xs.GetDim(3);
    uint32_t planes = xs.GetDim(0) * xs.GetDim(1);
    if (outW % 8 != 0 || inW % 8 != 0) {
        return ge::GRAPH_FAILED;
    }

    td.set_planes(planes);
    td.set_inH(inH);
    td.set_inW(inW);
    td.set_outH(outH);
    td.set_outW(outW);
    uint32_t tileRows = 4096 / outW;
    td.set_tileRows(tileRows == 0 ? 1 : tileRows);
    td.set_scaleH(outH > 1 ? static_cast<float>(inH - 1) / static_cast<float>(outH - 1) : 0.0f);
    td.set_scaleW(outW > 1 ? static_cast<float>(inW - 1) / static_cast<float>(outW - 1) : 0.0f);

    uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    context->SetBlockDim(planes < cores ? planes : cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    auto attrs = context->GetAttrs();
    *ys = *xs;
    ys->SetDim(2, *attrs->GetInt(0));
    ys->SetDim(3, *attrs->GetInt(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class BicubicUpsampleCustom : public OpDef {
public:
    explicit BicubicUpsampleCustom(const char* name) : OpDef(name)
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
        this->Attr("out_h").AttrType(OPTIONAL).Int(256);
        this->Attr("out_w").AttrType(OPTIONAL).Int(256);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BicubicUpsampleCustom);
}
