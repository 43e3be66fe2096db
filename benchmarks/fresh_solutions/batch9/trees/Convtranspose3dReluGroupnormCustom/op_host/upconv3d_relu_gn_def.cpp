#include "register/op_def_registry.h"

namespace ops {
ge::graphStatus Upconv3dReluGnTilingEntry(gert::TilingContext *context);

static ge::graphStatus InferUpconvShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    int64_t k = w->GetDim(2);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, x->GetDim(2) + k - 1);
    y->SetDim(3, x->GetDim(3) + k - 1);
    y->SetDim(4, x->GetDim(4) + k - 1);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus InferUpconvDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

class Upconv3dReluGn : public OpDef {
public:
    explicit Upconv3dReluGn(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(InferUpconvShape).SetInferDataType(InferUpconvDtype);
        this->AICore().SetTiling(Upconv3dReluGnTilingEntry);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Upconv3dReluGn);
} // namespace ops
