#include "register/op_def_registry.h"

namespace optiling {
extern ge::graphStatus GatedRecurrentTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus GatedRecurrentInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *h0 = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    gert::Shape *hn = context->GetOutputShape(1);
    y->SetDimNum(3);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, h0->GetDim(2));
    *hn = *h0;
    return GRAPH_SUCCESS;
}

static graphStatus GatedRecurrentInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MultiLayerGatedRecurrent : public OpDef {
public:
    explicit MultiLayerGatedRecurrent(const char *name) : OpDef(name)
    {
        auto addIn = [this](const char *n) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        };
        addIn("x");          // (T, B, I)
        addIn("h0");         // (L, B, H)
        addIn("w_ih_first"); // (3H, I), gate order r, z, n
        addIn("w_ih_deep");  // (max(L-1,1), 3H, H), input weights of layers 1..L-1
        addIn("w_hh");       // (L, 3H, H)
        addIn("b_ih");       // (L, 3H)
        addIn("b_hh");       // (L, 3H)
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_n")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::GatedRecurrentInferShape).SetInferDataType(ge::GatedRecurrentInferDtype);
        this->AICore().SetTiling(optiling::GatedRecurrentTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MultiLayerGatedRecurrent);
}  // namespace ops
