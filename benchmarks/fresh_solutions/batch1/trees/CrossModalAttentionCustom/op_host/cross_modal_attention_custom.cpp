#include <cmath>
#include "cross_modal_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // query : [BH, Lq, D]   key_t : [BH, D, Lk]   value : [BH, Lk, D]
    auto qShape = context->GetInputShape(0)->GetStorageShape();
    auto kShape = context->GetInputShape(1)->GetStorageShape();
    uint32_t bh = qShape.GetDim(0);
    uint32_t lq = qShape.GetDim(1);
    uint32_t d = qShape.GetDim(2);
    uint32_t lk = kShape.GetDim(2);
    uint32_t lkAlign = (lk + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t perCore = (bh + cores - 1) / cores;
    uint32_t used = (bh + perCore - 1) / perCore;

    CrossModalAttentionCustomTilingData tiling;
    tiling.set_batchHeads(bh);
    tiling.set_lenQ(lq);
    tiling.set_lenK(lk);
    tiling.set_lenKAlign(lkAlign);
    tiling.set_headDim(d);
    tiling.set_headsPerCore(perCore);
    tiling.set_scale(1.0f / std::sqrt(static_cast<float>(d)));

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* q = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    *out = *q;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class CrossModalAttentionCustom : public OpDef {
public:
    explicit CrossModalAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("query")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("key_t")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("value")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CrossModalAttentionCustom);
}
