#include "smooth_l1_mean_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t ALIGN_ELEMS = 8;          // 32 bytes of float
static constexpr uint32_t FLOATS_PER_REPEAT = 64;   // 256-byte vector repeat
static constexpr uint32_t MAX_TILE = 8192;

static inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SmoothL1MeanTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint64_t ubBytes = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);

    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const float *betaAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    float beta = (betaAttr == nullptr) ? 1.0f : *betaAttr;

    // split the flat tensor into core chunks aligned to 32 bytes
    uint64_t perCore = CeilDiv(CeilDiv(total, coreNum), ALIGN_ELEMS) * ALIGN_ELEMS;
    uint32_t usedCores = static_cast<uint32_t>(CeilDiv(total, perCore));
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint64_t lastCore = total - perCore * (usedCores - 1);

    // UB budget: 2 inputs x 2 buffers + diff + accumulator + reduce scratch ~ 7 tiles
    uint32_t tileLen = static_cast<uint32_t>(ubBytes / sizeof(float) / 8);
    tileLen = tileLen / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
    if (tileLen > MAX_TILE) {
        tileLen = MAX_TILE;
    }
    if (perCore < tileLen) {
        tileLen = static_cast<uint32_t>(perCore);
    }
    // ReduceSum (level 2) needs one partial per repeat, rounded up to a 32B block
    uint32_t reduceWorkLen = static_cast<uint32_t>(CeilDiv(CeilDiv(tileLen, FLOATS_PER_REPEAT), ALIGN_ELEMS) * ALIGN_ELEMS);

    tiling.set_totalCount(total);
    tiling.set_perCore(perCore);
    tiling.set_lastCore(lastCore);
    tiling.set_tileLen(tileLen);
    tiling.set_reduceWorkLen(reduceWorkLen);
    tiling.set_beta(beta);
    tiling.set_invCount(total == 0 ? 0.0f : static_cast<float>(1.0 / static_cast<double>(total)));

    context->SetBlockDim(usedCores);
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
    // mean reduction -> 0-d tensor
    gert::Shape *outShape = context->GetOutputShape(0);
    outShape->SetDimNum(0);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class SmoothL1MeanCustom : public OpDef {
public:
    explicit SmoothL1MeanCustom(const char *name) : OpDef(name)
    {
        this->Input("predictions")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("targets")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("beta").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SmoothL1MeanCustom);
} // namespace ops
