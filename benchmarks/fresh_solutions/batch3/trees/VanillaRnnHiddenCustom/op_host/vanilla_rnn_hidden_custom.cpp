#include "vanilla_rnn_hidden_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// budget for one double-buffered weight chunk (bytes, per buffer)
constexpr uint32_t W_CHUNK_BYTES = 48 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    VanillaRnnHiddenCustomTilingData td;

    const auto& xp_shape = context->GetInputShape(0)->GetStorageShape();   // (seq, batch, hid)
    uint32_t seq_len = static_cast<uint32_t>(xp_shape.GetDim(0));
    uint32_t batch = static_cast<uint32_t>(xp_shape.GetDim(1));
    uint32_t hid = static_cast<uint32_t>(xp_shape.GetDim(2));
    if (hid == 0 || hid % 8 != 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t k_chunk = W_CHUNK_BYTES / (hid * sizeof(float));
    if (k_chunk == 0) {
        k_chunk = 1;
    }
    if (k_chunk > hid) {
        k_chunk = hid;
    }
    uint32_t chunk_cnt = (hid + k_chunk - 1) / k_chunk;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t core_num = plat.GetCoreNumAiv();
    // one sequence (batch row) per core: the recurrence is strictly serial in t
    uint32_t blk_num = batch < core_num ? batch : core_num;
    if (blk_num == 0) {
        blk_num = 1;
    }

    td.set_seq_len(seq_len);
    td.set_batch(batch);
    td.set_hid(hid);
    td.set_k_chunk(k_chunk);
    td.set_chunk_cnt(chunk_cnt);
    td.set_blk_num(blk_num);

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
    // hidden states have the same shape as the projected input
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
class VanillaRnnHiddenCustom : public OpDef {
public:
    explicit VanillaRnnHiddenCustom(const char* name) : OpDef(name)
    {
        this->Input("xp")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("wh_t")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("hs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(VanillaRnnHiddenCustom);
}
