#include "linear_group_norm_row_min_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
// out shape is (1, N, M, 1): the (M, 1) row minima broadcast against a (1, N, 1, 1) bias
static graphStatus InferShapeLGNRM(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, 1);
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(0));
    y->SetDim(3, 1);
    return GRAPH_SUCCESS;
}
static graphStatus InferDtypeLGNRM(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class LinearGroupNormRowMin : public OpDef {
public:
    explicit LinearGroupNormRowMin(const char* name) : OpDef(name)
    {
        const char* inputs[] = {"x", "weight", "linear_bias", "gamma", "beta", "out_bias"};
        for (const char* in : inputs) {
            this->Input(in).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShapeLGNRM).SetInferDataType(ge::InferDtypeLGNRM);
        this->AICore().SetTiling(optiling::LinearGroupNormRowMinTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearGroupNormRowMin);
} // namespace ops
