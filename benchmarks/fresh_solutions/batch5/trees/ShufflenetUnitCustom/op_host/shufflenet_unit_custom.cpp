#include "shufflenet_unit_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 16 * 1024;  // floats per copy step (64 KB, double buffered)

// Channel shuffle of the ShuffleNet unit:
//   y[n, j * groups + g] = x[n, g * cpg + j],  cpg = C / groups
// Work is distributed over whole (n, c) planes; each plane is a contiguous
// H*W run in both input and output, so the op is a strided plane permutation.
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ShufflenetUnitCustomTilingData tiling;
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t plane = static_cast<uint32_t>(xs.GetDim(2) * xs.GetDim(3));

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t groups = *(attrs->GetAttrPointer<int64_t>(0));
    if (groups <= 0 || c % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t totalPlanes = n * c;
    if (cores == 0) {
        cores = 1;
    }
    if (cores > totalPlanes) {
        cores = totalPlanes;
    }

    tiling.set_channels(c);
    tiling.set_groups(static_cast<uint32_t>(groups));
    tiling.set_chPerGroup(c / static_cast<uint32_t>(groups));
    tiling.set_planeSize(plane);
    tiling.set_totalPlanes(totalPlanes);
    tiling.set_planesPerCore(totalPlanes / cores);
    tiling.set_extraPlanes(totalPlanes % cores);
    tiling.set_tileLen(plane < MAX_TILE ? plane : MAX_TILE);

    context->SetBlockDim(cores);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ShufflenetUnitCustom : public OpDef {
public:
    explicit ShufflenetUnitCustom(const char *name) : OpDef(name)
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
        this->Attr("groups").AttrType(REQUIRED).Int(3);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ShufflenetUnitCustom);
} // namespace ops
