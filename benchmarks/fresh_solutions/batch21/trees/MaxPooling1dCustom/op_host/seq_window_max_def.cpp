#include "seq_window_max_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus SeqWindowMaxInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    auto attrs = ctx->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    int64_t d = *attrs->GetAttrPointer<int64_t>(3);
    if (s <= 0) s = k;
    *y = *x;
    size_t last = x->GetDimNum() - 1;
    y->SetDim(last, (x->GetDim(last) + 2 * p - d * (k - 1) - 1) / s + 1);
    return GRAPH_SUCCESS;
}
static graphStatus SeqWindowMaxInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class SeqWindowMax : public OpDef {
public:
    explicit SeqWindowMax(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("kernel_size").AttrType(REQUIRED).Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(0);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::SeqWindowMaxInferShape).SetInferDataType(ge::SeqWindowMaxInferDtype);
        this->AICore().SetTiling(optiling::SeqWindowMaxTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SeqWindowMax);
}
