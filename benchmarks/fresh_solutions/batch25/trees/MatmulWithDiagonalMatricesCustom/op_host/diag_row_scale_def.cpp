#include "diag_row_scale_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DiagRowScaleTilingFunc(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus DiagRowScaleInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus DiagRowScaleInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(1));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DiagRowScale : public OpDef {
public:
    explicit DiagRowScale(const char *name) : OpDef(name)
    {
        this->Input("diag")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("matrix")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::DiagRowScaleInferShape).SetInferDataType(ge::DiagRowScaleInferDtype);
        this->AICore().SetTiling(optiling::DiagRowScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(DiagRowScale);
}  // namespace ops
