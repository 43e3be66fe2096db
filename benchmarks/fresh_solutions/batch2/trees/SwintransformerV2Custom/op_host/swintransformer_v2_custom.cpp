#include "swintransformer_v2_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SwintransformerV2CustomTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    size_t dims = xs.GetDimNum();
    uint32_t cols = static_cast<uint32_t>(xs.GetDim(dims - 1));
    uint32_t rows = static_cast<uint32_t>(xs.GetShapeSize() / cols);
    uint32_t colsAlign = (cols + 7) / 8 * 8;

    const float* epsAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    float eps = epsAttr == nullptr ? 1e-5f : *epsAttr;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (rows + cores - 1) / cores;
    uint32_t blockDim = (rows + per - 1) / per;

    // x, residual and y tiles are double buffered, plus gamma/beta/scratch:
    // 6 * tile * colsAlign + 4 * colsAlign floats must fit in ~160KB
    uint32_t budget = 160 * 1024 / sizeof(float);
    uint32_t tileRows = (budget - 4 * colsAlign) / (6 * colsAlign);
    if (tileRows == 0) {
        return ge::GRAPH_FAILED;
    }
    if (tileRows > per) {
        tileRows = per;
    }

    td.set_rows(rows);
    td.set_cols(cols);
    td.set_colsAlign(colsAlign);
    td.set_rowsPerCore(per);
    td.set_rowsPerTile(tileRows);
    td.set_eps(eps);
    td.set_invCols(1.0f / static_cast<float>(cols));

    context->SetBlockDim(blockDim);
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
class SwintransformerV2Custom : public OpDef {
public:
    explicit SwintransformerV2Custom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("residual")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SwintransformerV2Custom);
}
