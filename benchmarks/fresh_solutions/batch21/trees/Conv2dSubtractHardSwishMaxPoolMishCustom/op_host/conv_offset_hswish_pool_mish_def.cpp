#include "conv_offset_hswish_pool_mish_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ConvOffsetHswishPoolMishInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const auto *attrs = context->GetAttrs();
    int64_t pool = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape *y = context->GetOutputShape(0);
    int64_t oh = x->GetDim(2) - w->GetDim(2) + 1;
    int64_t ow = x->GetDim(3) - w->GetDim(3) + 1;
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, oh / pool);
    y->SetDim(3, ow / pool);
    return GRAPH_SUCCESS;
}

static graphStatus ConvOffsetHswishPoolMishInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvOffsetHswishPoolMish : public OpDef {
public:
    explicit ConvOffsetHswishPoolMish(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Input("filter").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW}).UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Attr("offset").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("pool_size").AttrType(OPTIONAL).Int(2);

        this->SetInferShape(ge::ConvOffsetHswishPoolMishInferShape)
            .SetInferDataType(ge::ConvOffsetHswishPoolMishInferDtype);
        this->AICore().SetTiling(optiling::ConvOffsetHswishPoolMishTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvOffsetHswishPoolMish);
} // namespace ops
