#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus WindowMaxPoolTilingFunc(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus WindowMaxPoolInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *in = context->GetInputShape(0);
    auto attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t *sPtr = attrs->GetAttrPointer<int64_t>(1);
    int64_t s = (sPtr == nullptr || *sPtr <= 0) ? k : *sPtr;
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    gert::Shape *out = context->GetOutputShape(0);
    *out = *in;
    out->SetDim(2, (in->GetDim(2) + 2 * p - k) / s + 1);
    out->SetDim(3, (in->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus WindowMaxPoolInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class WindowMaxPool : public OpDef {
public:
    explicit WindowMaxPool(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("kernel_size").AttrType(REQUIRED).Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(0);     // 0 -> equal to kernel_size
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::WindowMaxPoolInferShape).SetInferDataType(ge::WindowMaxPoolInferDataType);
        this->AICore().SetTiling(optiling::WindowMaxPoolTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(WindowMaxPool);
}  // namespace ops
