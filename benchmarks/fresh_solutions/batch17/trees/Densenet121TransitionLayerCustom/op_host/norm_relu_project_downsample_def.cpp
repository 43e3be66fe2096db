#include "register/op_def_registry.h"
#include "norm_relu_project_downsample_tiling.h"

namespace optiling {
ge::graphStatus NormReluProjectDownsampleTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus NrpdInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(3);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) / 2);
    y->SetDim(3, x->GetDim(3) / 2);
    return GRAPH_SUCCESS;
}
static graphStatus NrpdInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class NormReluProjectDownsample : public OpDef {
public:
    explicit NormReluProjectDownsample(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCHW});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::NrpdInferShape).SetInferDataType(ge::NrpdInferType);
        this->AICore().SetTiling(optiling::NormReluProjectDownsampleTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(NormReluProjectDownsample);
}  // namespace ops
