#include "tanh_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 8192;          // 32 KB fp32 per buffer
constexpr uint32_t TMP_BYTES = 2 * TILE_LEN * sizeof(float);

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TanhCustomTilingData td;
    uint64_t total = static_cast<uint64_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t core_num = plat.GetCoreNumAiv();
    if (core_num == 0) {
        core_num = 1;
    }

    // per-core share rounded up to a 32B multiple so every core but the last starts aligned
    uint64_t blk_len = (total + core_num - 1) / core_num;
    blk_len = (blk_len + 7) / 8 * 8;
    if (blk_len == 0) {
        blk_len = 8;
    }
    uint32_t blk_num = static_cast<uint32_t>((total + blk_len - 1) / blk_len);
    if (blk_num == 0) {
        blk_num = 1;
    }

    td.set_total_len(total);
    td.set_blk_len(blk_len);
    td.set_tile_len(TILE_LEN);
    td.set_tmp_bytes(TMP_BYTES);

    context->SetBlockDim(blk_num);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class TanhCustom : public OpDef {
public:
    explicit TanhCustom(const char* name) : OpDef(name)
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

OP_ADD(TanhCustom);
}
