// FillWhereTrue: y = mask ? value : x
#include <limits>
#include "fill_where_true_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus FillWhereTrueShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus FillWhereTrueDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class FillWhereTrue : public OpDef {
public:
    explicit FillWhereTrue(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("value").AttrType(OPTIONAL).Float(-std::numeric_limits<float>::infinity());

        this->SetInferShape(ge::FillWhereTrueShape).SetInferDataType(ge::FillWhereTrueDtype);
        this->AICore().SetTiling(optiling::FillWhereTrueTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FillWhereTrue);
}  // namespace ops
