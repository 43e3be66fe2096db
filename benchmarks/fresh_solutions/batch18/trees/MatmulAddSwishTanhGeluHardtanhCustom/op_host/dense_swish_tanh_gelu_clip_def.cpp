#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DenseSwishTanhGeluClipTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus DenseSwishTanhGeluClipShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus DenseSwishTanhGeluClipType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DenseSwishTanhGeluClip : public OpDef {
public:
    explicit DenseSwishTanhGeluClip(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::DenseSwishTanhGeluClipShape).SetInferDataType(ge::DenseSwishTanhGeluClipType);
        this->AICore().SetTiling(optiling::DenseSwishTanhGeluClipTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseSwishTanhGeluClip);
}  // namespace ops
