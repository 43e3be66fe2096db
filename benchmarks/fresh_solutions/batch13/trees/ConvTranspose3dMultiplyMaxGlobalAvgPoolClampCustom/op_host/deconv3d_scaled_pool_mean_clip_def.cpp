#include "deconv3d_scaled_pool_mean_clip_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus Deconv3dScaledPoolMeanClipInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, 1);
    y->SetDim(3, 1);
    y->SetDim(4, 1);
    return GRAPH_SUCCESS;
}
static graphStatus Deconv3dScaledPoolMeanClipInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Deconv3dScaledPoolMeanClip : public OpDef {
public:
    explicit Deconv3dScaledPoolMeanClip(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCDHW});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_NCDHW});

        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("pool_size").AttrType(OPTIONAL).Int(2);
        this->Attr("clip_min").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::Deconv3dScaledPoolMeanClipInferShape)
            .SetInferDataType(ge::Deconv3dScaledPoolMeanClipInferType);
        this->AICore().SetTiling(optiling::Deconv3dScaledPoolMeanClipTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv3dScaledPoolMeanClip);
}
