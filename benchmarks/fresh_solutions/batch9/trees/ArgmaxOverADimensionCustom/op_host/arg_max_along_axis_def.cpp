#include "arg_max_along_axis_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ArgMaxAlongAxisInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const int64_t *dimAttr = ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    const bool *keepAttr = ctx->GetAttrs()->GetAttrPointer<bool>(1);
    int64_t rank = static_cast<int64_t>(x->GetDimNum());
    int64_t dim = dimAttr ? *dimAttr : 0;
    if (dim < 0) {
        dim += rank;
    }
    bool keep = keepAttr && *keepAttr;
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) {
        if (i == dim) {
            if (keep) {
                y->AppendDim(1);
            }
            continue;
        }
        y->AppendDim(x->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
static graphStatus ArgMaxAlongAxisInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ge::DT_INT64);
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ArgMaxAlongAxis : public OpDef {
public:
    explicit ArgMaxAlongAxis(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(REQUIRED).Int();
        this->Attr("keepdim").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::ArgMaxAlongAxisInferShape).SetInferDataType(ge::ArgMaxAlongAxisInferDtype);
        this->AICore().SetTiling(optiling::ArgMaxAlongAxisTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ArgMaxAlongAxis);
}
