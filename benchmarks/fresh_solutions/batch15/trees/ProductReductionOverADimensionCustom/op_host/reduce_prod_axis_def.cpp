#include "reduce_prod_axis_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ReduceProdAxisInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *in = ctx->GetInputShape(0);
    gert::Shape *out = ctx->GetOutputShape(0);
    const auto *attrs = ctx->GetAttrs();
    int64_t rank = static_cast<int64_t>(in->GetDimNum());
    int64_t dim = *attrs->GetAttrPointer<int64_t>(0);
    bool keep = *attrs->GetAttrPointer<bool>(1);
    if (dim < 0) dim += rank;
    out->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i == dim) {
            if (keep) out->AppendDim(1);
            continue;
        }
        out->AppendDim(in->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static graphStatus ReduceProdAxisInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ReduceProdAxis : public OpDef {
public:
    explicit ReduceProdAxis(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(REQUIRED).Int();
        this->Attr("keepdim").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::ReduceProdAxisInferShape).SetInferDataType(ge::ReduceProdAxisInferDtype);
        this->AICore().SetTiling(optiling::ReduceProdAxisTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReduceProdAxis);
}
