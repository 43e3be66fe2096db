#include "googlenet_inception_module_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GooglenetInceptionModuleCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();   // [N, C, H, W]
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint64_t n = shape.GetDim(0);
    uint64_t c = shape.GetDim(1);
    uint32_t h = static_cast<uint32_t>(shape.GetDim(2));
    uint32_t w = static_cast<uint32_t>(shape.GetDim(3));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t cores = platform.GetCoreNumAiv();
    uint64_t rows = n * c * h;
    if (cores > rows) cores = rows;
    if (cores == 0) cores = 1;

    tiling.set_height(h);
    tiling.set_width(w);
    tiling.set_widthAlign((w + 7) / 8 * 8);
    tiling.set_totalRows(rows);
    tiling.set_rowsPerCore(rows / cores);
    tiling.set_rowsRemain(rows % cores);

    context->SetBlockDim(static_cast<uint32_t>(cores));
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
class GooglenetInceptionModuleCustom : public OpDef {
public:
    explicit GooglenetInceptionModuleCustom(const char* name) : OpDef(name)
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
OP_ADD(GooglenetInceptionModuleCustom);
}
