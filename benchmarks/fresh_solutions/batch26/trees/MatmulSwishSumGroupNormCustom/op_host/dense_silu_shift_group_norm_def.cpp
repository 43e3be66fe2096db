#include "dense_silu_shift_group_norm_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DenseSiluShiftGroupNormInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}

static graphStatus DenseSiluShiftGroupNormInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class DenseSiluShiftGroupNorm : public OpDef {
public:
    explicit DenseSiluShiftGroupNorm(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("dense_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::DenseSiluShiftGroupNormInferShape)
            .SetInferDataType(ge::DenseSiluShiftGroupNormInferDtype);
        this->AICore().SetTiling(optiling::DenseSiluShiftGroupNormTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DenseSiluShiftGroupNorm);
} // namespace ops
