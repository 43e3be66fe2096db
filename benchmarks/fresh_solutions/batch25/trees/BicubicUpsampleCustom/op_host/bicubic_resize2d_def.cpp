#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus BicubicResize2dTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus BicubicResize2dInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::ContinuousVector *size = context->GetAttrs()->GetAttrPointer<gert::ContinuousVector>(0);
    const int64_t *hw = reinterpret_cast<const int64_t *>(size->GetData());
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(2, hw[0]);
    y->SetDim(3, hw[1]);
    return GRAPH_SUCCESS;
}
static graphStatus BicubicResize2dInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class BicubicResize2d : public OpDef {
public:
    explicit BicubicResize2d(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("size").AttrType(REQUIRED).ListInt();
        this->Attr("align_corners").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::BicubicResize2dInferShape).SetInferDataType(ge::BicubicResize2dInferDtype);
        this->AICore().SetTiling(optiling::BicubicResize2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BicubicResize2d);
}  // namespace ops
