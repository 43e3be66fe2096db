/**
 * OpDef of DeconvGeluGroupNorm.
 */
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DeconvGeluGroupNormTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus DeconvGeluGroupNormInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const auto *attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, (x->GetDim(2) - 1) * s - 2 * p + w->GetDim(2));
    y->SetDim(3, (x->GetDim(3) - 1) * s - 2 * p + w->GetDim(3));
    return GRAPH_SUCCESS;
}

static graphStatus DeconvGeluGroupNormInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DeconvGeluGroupNorm : public OpDef {
public:
    explicit DeconvGeluGroupNorm(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::DeconvGeluGroupNormInferShape)
            .SetInferDataType(ge::DeconvGeluGroupNormInferDataType);
        this->AICore().SetTiling(optiling::DeconvGeluGroupNormTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DeconvGeluGroupNorm);
}  // namespace ops
