#include "register/op_def_registry.h"
#include "deconv3d_relu_group_norm_tiling.h"

namespace optiling {
ge::graphStatus Deconv3dReluGroupNormTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus Deconv3dReluGroupNormInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    int64_t k = w->GetDim(2);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, x->GetDim(2) + k - 1);
    y->SetDim(3, x->GetDim(3) + k - 1);
    y->SetDim(4, x->GetDim(4) + k - 1);
    return GRAPH_SUCCESS;
}

static graphStatus Deconv3dReluGroupNormInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Deconv3dReluGroupNorm : public OpDef {
public:
    explicit Deconv3dReluGroupNorm(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::Deconv3dReluGroupNormInferShape)
            .SetInferDataType(ge::Deconv3dReluGroupNormInferDtype);
        this->AICore().SetTiling(optiling::Deconv3dReluGroupNormTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv3dReluGroupNorm);
}  // namespace ops
