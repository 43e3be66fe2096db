#include "conv_offset_mish_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ConvOffsetMishInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    if (x == nullptr || w == nullptr || y == nullptr) {
        return GRAPH_FAILED;
    }
    if (x->GetDimNum() != 4 || w->GetDimNum() != 4) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}

static graphStatus ConvOffsetMishInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ConvOffsetMish : public OpDef {
public:
    explicit ConvOffsetMish(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW});
        this->Attr("offset_a").AttrType(OPTIONAL).Float(0.0f);
        this->Attr("offset_b").AttrType(OPTIONAL).Float(0.0f);

        this->SetInferShape(ge::ConvOffsetMishInferShape)
            .SetInferDataType(ge::ConvOffsetMishInferDataType);
        this->AICore().SetTiling(optiling::ConvOffsetMishTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvOffsetMish);
}  // namespace ops
