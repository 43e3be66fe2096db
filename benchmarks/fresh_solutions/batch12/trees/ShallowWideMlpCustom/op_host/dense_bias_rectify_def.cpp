#include "dense_bias_rectify_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DenseBiasRectifyTilingFunc(gert::TilingContext* context);
}

namespace ge {
// y keeps the leading dims of x; the last dim becomes out_features (= weight rows).
static graphStatus DenseBiasRectifyInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(x->GetDimNum() - 1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus DenseBiasRectifyInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseBiasRectify : public OpDef {
public:
    explicit DenseBiasRectify(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("apply_relu").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::DenseBiasRectifyInferShape).SetInferDataType(ge::DenseBiasRectifyInferDataType);
        this->AICore().SetTiling(optiling::DenseBiasRectifyTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseBiasRectify);
}  // namespace ops
