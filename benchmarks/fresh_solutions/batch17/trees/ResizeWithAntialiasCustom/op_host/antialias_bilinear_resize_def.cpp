#include "register/op_def_registry.h"

namespace optiling {
extern ge::graphStatus AaResizeTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus AaResizeInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const gert::ContinuousVector *size = attrs ? attrs->GetAttrPointer<gert::ContinuousVector>(0) : nullptr;
    if (size == nullptr || size->GetSize() != 2) {
        return GRAPH_FAILED;
    }
    const int64_t *hw = static_cast<const int64_t *>(size->GetData());
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(2, hw[0]);
    y->SetDim(3, hw[1]);
    return GRAPH_SUCCESS;
}

static graphStatus AaResizeInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AntialiasBilinearResize : public OpDef {
public:
    explicit AntialiasBilinearResize(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("size").AttrType(REQUIRED).ListInt();

        this->SetInferShape(ge::AaResizeInferShape).SetInferDataType(ge::AaResizeInferDtype);
        this->AICore().SetTiling(optiling::AaResizeTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AntialiasBilinearResize);
}  // namespace ops
