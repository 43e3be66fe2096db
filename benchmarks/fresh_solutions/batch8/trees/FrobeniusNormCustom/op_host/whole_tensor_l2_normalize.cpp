#include "whole_tensor_l2_normalize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t kTile = 8192;          // 32 KB per buffer
constexpr uint32_t kFloatsPerBlock = 8;   // 32 B
constexpr uint32_t kFloatsPerRepeat = 64; // 256 B

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    if (aiv == 0) {
        aiv = 1;
    }

    uint64_t slice = (total + aiv - 1) / aiv;
    slice = (slice + kFloatsPerBlock - 1) / kFloatsPerBlock * kFloatsPerBlock;
    if (slice == 0) {
        slice = kFloatsPerBlock;
    }
    uint32_t used = static_cast<uint32_t>((total + slice - 1) / slice);
    if (used == 0) {
        used = 1;
    }
    uint32_t tile = kTile;
    if (slice < tile) {
        tile = static_cast<uint32_t>((slice + kFloatsPerRepeat - 1) / kFloatsPerRepeat * kFloatsPerRepeat);
    }
    // ReduceSum scratch must cover both the tile accumulator and the table of per-core partials
    uint32_t longest = tile > used * kFloatsPerBlock ? tile : used * kFloatsPerBlock;
    uint32_t repeats = (longest + kFloatsPerRepeat - 1) / kFloatsPerRepeat;
    uint32_t work = (repeats + kFloatsPerBlock - 1) / kFloatsPerBlock * kFloatsPerBlock;

    WholeTensorL2NormalizeTiling td;
    td.set_total(total);
    td.set_sliceLen(slice);
    td.set_tileLen(tile);
    td.set_sumWorkLen(work);
    td.set_usedCores(used);

    // hardware SyncAll requires every launched block to be resident at once
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // system workspace (needed by SyncAll) + one 32-byte slot per core for its partial sum
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * kFloatsPerBlock * sizeof(float);
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
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class WholeTensorL2NormalizeCustom : public OpDef {
public:
    explicit WholeTensorL2NormalizeCustom(const char *name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(WholeTensorL2NormalizeCustom);
} // namespace ops
