#include "downsample_bilinear_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t Align8(uint32_t v) { return (v + 7U) & ~7U; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto xs = context->GetInputShape(0)->GetOriginShape();     // [N, C, H, W]
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t outH = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t outW = static_cast<uint32_t>(*attrs->GetInt(1));

    uint32_t planes = static_cast<uint32_t>(xs.GetDim(0) * xs.GetDim(1));
    uint32_t inH = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t inW = static_cast<uint32_t>(xs.GetDim(3));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t totalRows = planes * outH;
    uint32_t rowsPerCore = (totalRows + cores - 1) / cores;
    uint32_t used = (totalRows + rowsPerCore - 1) / rowsPerCore;

    DownsampleBilinearCustomTilingData td;
    td.set_planes(planes);
    td.set_inH(inH);
    td.set_inW(inW);
    td.set_outH(outH);
    td.set_outW(outW);
    td.set_inWAlign(Align8(inW));
    td.set_outWAlign(Align8(outW));
    td.set_totalRows(totalRows);
    td.set_rowsPerCore(rowsPerCore);
    td.set_scaleH(static_cast<float>(inH) / static_cast<float>(outH));
    td.set_scaleW(static_cast<float>(inW) / static_cast<float>(outW));

    context->SetBlockDim(used);
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
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
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
class DownsampleBilinearCustom : public OpDef {
public:
    explicit DownsampleBilinearCustom(const char* name) : OpDef(name)
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
        this->Attr("out_h").Int();
        this->Attr("out_w").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DownsampleBilinearCustom);
}
