#include "bounded_clip_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_ELEMS = 8192;   // 32 KB per buffer, 4 buffers in flight
const uint32_t ALIGN = 8;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    BoundedClipTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto attrs = context->GetAttrs();
    const float *lo = attrs->GetAttrPointer<float>(0);
    const float *hi = attrs->GetAttrPointer<float>(1);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = ascendcPlatform.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    uint64_t perCore = (total + cores - 1) / cores;
    perCore = (perCore + ALIGN - 1) / ALIGN * ALIGN;
    if (perCore == 0) {
        perCore = ALIGN;
    }
    uint32_t used = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (used == 0) {
        used = 1;
    }

    tiling.set_totalElems(total);
    tiling.set_coreElems(perCore);
    tiling.set_tileElems(perCore < TILE_ELEMS ? static_cast<uint32_t>(perCore) : TILE_ELEMS);
    tiling.set_lower(lo ? *lo : -1.0f);
    tiling.set_upper(hi ? *hi : 1.0f);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class BoundedClipCustom : public OpDef {
public:
    explicit BoundedClipCustom(const char *name) : OpDef(name)
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
        this->Attr("lower").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("upper").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BoundedClipCustom);
} // namespace ops
