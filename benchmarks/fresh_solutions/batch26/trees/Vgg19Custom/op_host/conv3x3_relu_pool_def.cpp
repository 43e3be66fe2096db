#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Conv3x3ReluPoolTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus Conv3x3ReluPoolInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const bool *pool = context->GetAttrs()->GetAttrPointer<bool>(0);
    int64_t div = (pool != nullptr && *pool) ? 2 : 1;
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) / div);
    y->SetDim(3, x->GetDim(3) / div);
    return GRAPH_SUCCESS;
}
static graphStatus Conv3x3ReluPoolInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Conv3x3ReluPool : public OpDef {
public:
    explicit Conv3x3ReluPool(const char *name) : OpDef(name)
    {
        for (const char *in : {"x", "weight", "bias"}) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("with_pool").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::Conv3x3ReluPoolInferShape).SetInferDataType(ge::Conv3x3ReluPoolInferDtype);
        this->AICore().SetTiling(optiling::Conv3x3ReluPoolTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv3x3ReluPool);
}
