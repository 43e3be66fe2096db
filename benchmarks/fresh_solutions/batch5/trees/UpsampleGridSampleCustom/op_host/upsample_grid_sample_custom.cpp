#include "upsample_grid_sample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    UpsampleGridSampleCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t uh = h * 2, uw = w * 2;
    if (uw % 8 != 0 || w % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t planes = n * c;
    uint32_t coreNum = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t blockDim = planes < coreNum ? planes : coreNum;

    uint32_t rowsPerTile = 2048 / uw;   // ~8KB output tile
    if (rowsPerTile == 0) rowsPerTile = 1;
    if (rowsPerTile > uh) rowsPerTile = uh;

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_upH(uh);
    tiling.set_upW(uw);
    tiling.set_planesPerCore(planes / blockDim);
    tiling.set_extraPlanes(planes % blockDim);
    tiling.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(2, xs->GetDim(2) * 2);
    ys->SetDim(3, xs->GetDim(3) * 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class UpsampleGridSampleCustom : public OpDef {
public:
    explicit UpsampleGridSampleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("theta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(UpsampleGridSampleCustom);
}
