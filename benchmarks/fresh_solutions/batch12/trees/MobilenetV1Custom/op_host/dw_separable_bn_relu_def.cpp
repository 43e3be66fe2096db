#include "dw_separable_bn_relu_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DwSeparableBnReluTilingFunc(gert::TilingContext* context);
}

namespace ge {
static graphStatus DwSeparableBnReluInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* dw = context->GetInputShape(1);
    const gert::Shape* pw = context->GetInputShape(4);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t k = dw->GetDim(2);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, pw->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * p - k) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static graphStatus DwSeparableBnReluInferDtype(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DwSeparableBnRelu : public OpDef {
public:
    explicit DwSeparableBnRelu(const char* name) : OpDef(name)
    {
        const char* inputs[] = {"x", "dw_weight", "dw_scale", "dw_shift", "pw_weight", "pw_scale", "pw_shift"};
        for (const char* in : inputs) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::DwSeparableBnReluInferShape).SetInferDataType(ge::DwSeparableBnReluInferDtype);
        this->AICore().SetTiling(optiling::DwSeparableBnReluTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DwSeparableBnRelu);
}  // namespace ops
