// DenseSwishTanhGeluClip: y = clip(gelu(tanh(swish(x @ W^T + b + shift))), lo, hi)
#include "dense_swish_tanh_gelu_clip_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DenseSwishTanhGeluClipTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus DenseInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus DenseInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseSwishTanhGeluClip : public OpDef {
public:
    explicit DenseSwishTanhGeluClip(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::DenseInferShape).SetInferDataType(ge::DenseInferDtype);
        this->AICore().SetTiling(optiling::DenseSwishTanhGeluClipTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseSwishTanhGeluClip);
}  // namespace ops
