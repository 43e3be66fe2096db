#include "register/op_def_registry.h"
#include "upconv3d_bn_center_tiling.h"

namespace optiling {
ge::graphStatus UpConv3dBnCenterTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus UpConv3dBnCenterShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    const int64_t s = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t p = *ctx->GetAttrs()->GetAttrPointer<int64_t>(1);
    const int64_t k = w->GetDim(2);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, (x->GetDim(i) - 1) * s - 2 * p + k);
    }
    return GRAPH_SUCCESS;
}

static graphStatus UpConv3dBnCenterType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class UpConv3dBnCenter : public OpDef {
public:
    explicit UpConv3dBnCenter(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::UpConv3dBnCenterShape).SetInferDataType(ge::UpConv3dBnCenterType);
        this->AICore().SetTiling(optiling::UpConv3dBnCenterTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UpConv3dBnCenter);
}  // namespace ops
