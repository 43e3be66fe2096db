/**
 * Deconv1d operator definition.
 *   y[N, Cout, Lout] = conv_transpose1d(x[N, Cin, L], weight[Cin, Cout/groups, K], bias[Cout])
 *   Lout = (L - 1) * stride - 2 * padding + K + output_padding
 */
#include "deconv1d_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Deconv1dTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus Deconv1dInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    const auto *attrs = context->GetAttrs();
    int64_t stride = *attrs->GetInt(0);
    int64_t pad = *attrs->GetInt(1);
    int64_t outPad = *attrs->GetInt(2);
    int64_t groups = *attrs->GetInt(3);

    y->SetDimNum(3);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * groups);
    y->SetDim(2, (x->GetDim(2) - 1) * stride - 2 * pad + w->GetDim(2) + outPad);
    return GRAPH_SUCCESS;
}

static graphStatus Deconv1dInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Deconv1d : public OpDef {
public:
    explicit Deconv1d(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::Deconv1dInferShape).SetInferDataType(ge::Deconv1dInferDtype);
        this->AICore().SetTiling(optiling::Deconv1dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Deconv1d);
}  // namespace ops
