// ValidConv2d - unpadded ("valid") NCHW convolution with a rectangular kernel.
#include "valid_conv2d_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ValidConv2dTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus ValidConv2dShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const int64_t *sh = ctx->GetAttrs()->GetInt(0);
    int64_t s = (sh == nullptr || *sh <= 0) ? 1 : *sh;
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) - w->GetDim(2)) / s + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static graphStatus ValidConv2dType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ValidConv2d : public OpDef {
public:
    explicit ValidConv2d(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        // vertical stride; the width stride is fixed to 1
        this->Attr("stride_h").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::ValidConv2dShape).SetInferDataType(ge::ValidConv2dType);
        this->AICore().SetTiling(optiling::ValidConv2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ValidConv2d);
}  // namespace ops
