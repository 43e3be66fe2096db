#include "up_conv3d_norm_pool_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus UpConv3dNormPoolTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus UpConv3dNormPoolInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const auto *attrs = context->GetAttrs();
    const int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (size_t i = 0; i < 3; ++i) {
        const int64_t conv = (x->GetDim(2 + i) - 1) * s + w->GetDim(2 + i) - 2 * p;
        y->SetDim(2 + i, conv / 4);   // two 2x2x2 pools, floor mode
    }
    return GRAPH_SUCCESS;
}
static graphStatus UpConv3dNormPoolInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class UpConv3dNormPool : public OpDef {
public:
    explicit UpConv3dNormPool(const char *name) : OpDef(name)
    {
        const char *ins[] = {"x", "weight", "bias", "gamma", "beta"};
        for (const char *nm : ins) {
            this->Input(nm).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::UpConv3dNormPoolInferShape).SetInferDataType(ge::UpConv3dNormPoolInferType);
        this->AICore().SetTiling(optiling::UpConv3dNormPoolTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UpConv3dNormPool);
}
