#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Deconv2dSquareTiling(gert::TilingContext* ctx);
}

namespace ge {
static graphStatus Deconv2dSquareInferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t outPad = *attrs->GetAttrPointer<int64_t>(2);
    int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    int64_t k = w->GetDim(2);

    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * groups);
    y->SetDim(2, (x->GetDim(2) - 1) * stride - 2 * pad + k + outPad);
    y->SetDim(3, (x->GetDim(3) - 1) * stride - 2 * pad + k + outPad);
    return GRAPH_SUCCESS;
}

static graphStatus Deconv2dSquareInferType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Deconv2dSquare : public OpDef {
public:
    explicit Deconv2dSquare(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});

        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::Deconv2dSquareInferShape).SetInferDataType(ge::Deconv2dSquareInferType);
        this->AICore().SetTiling(optiling::Deconv2dSquareTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv2dSquare);
} // namespace ops
