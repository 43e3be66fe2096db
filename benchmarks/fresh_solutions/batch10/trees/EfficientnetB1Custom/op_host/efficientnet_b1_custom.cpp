#include "efficientnet_b1_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE_LEN = 8192;   // 32 KB of fp32 per buffer
constexpr uint32_t ALIGN_ELEMS = 8;       // 32 B / sizeof(float)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    EfficientnetB1CustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::Shape& shape = xShape->GetStorageShape();
    if (shape.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t hw = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        hw *= static_cast<uint32_t>(shape.GetDim(i));
    }
    uint32_t rows = n * c;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t usedCores = rows < coreNum ? rows : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }
    uint32_t rowsPerCore = rows / usedCores;
    uint32_t bigCores = rows % usedCores;

    uint32_t tileLen = (hw + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS;
    if (tileLen > MAX_TILE_LEN) {
        tileLen = MAX_TILE_LEN;
    }

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float clipMin = *attrs->GetAttrPointer<float>(0);
    float clipMax = *attrs->GetAttrPointer<float>(1);

    tiling.set_rows(rows);
    tiling.set_channels(c);
    tiling.set_rowLen(hw);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_bigCores(bigCores);
    tiling.set_tileLen(tileLen);
    tiling.set_clipMin(clipMin);
    tiling.set_clipMax(clipMax);

    context->SetBlockDim(usedCores);
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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class EfficientnetB1Custom : public OpDef {
public:
    explicit EfficientnetB1Custom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("clip_min").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(6.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(EfficientnetB1Custom);
}
