#include "register/op_def_registry.h"

namespace optiling {
extern ge::graphStatus DenseMaxCenterGeluTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus DenseMaxCenterGeluInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t dim = 1;
    if (attrs != nullptr && attrs->GetAttrPointer<int64_t>(0) != nullptr) {
        dim = *attrs->GetAttrPointer<int64_t>(0);
    }
    if (dim < 0) {
        dim += 2;
    }
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    // keepdim max: the reduced axis collapses to 1
    y->SetDim(0, dim == 0 ? 1 : x->GetDim(0));
    y->SetDim(1, dim == 0 ? w->GetDim(0) : 1);
    return GRAPH_SUCCESS;
}

static graphStatus DenseMaxCenterGeluInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseMaxCenterGelu : public OpDef {
public:
    explicit DenseMaxCenterGelu(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("reduce_dim").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::DenseMaxCenterGeluInferShape).SetInferDataType(ge::DenseMaxCenterGeluInferDtype);
        this->AICore().SetTiling(optiling::DenseMaxCenterGeluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseMaxCenterGelu);
}  // namespace ops
