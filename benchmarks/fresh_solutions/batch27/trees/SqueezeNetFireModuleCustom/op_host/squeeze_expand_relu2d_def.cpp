/**
 * @file squeeze_expand_relu2d_def.cpp
 * @brief Operator prototype of SqueezeExpandRelu2d (bottleneck 1x1 squeeze followed by parallel
 *        1x1 / 3x3 expand convolutions whose ReLU outputs are concatenated on channels).
 */
#include "squeeze_expand_relu2d_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus SqueezeExpandRelu2dInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* e1w = context->GetInputShape(3);
    const gert::Shape* e3w = context->GetInputShape(5);
    gert::Shape* y = context->GetOutputShape(0);
    if (x == nullptr || e1w == nullptr || e3w == nullptr || y == nullptr || x->GetDimNum() != 4) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, e1w->GetDim(0) + e3w->GetDim(0));
    y->SetDim(2, x->GetDim(2));
    y->SetDim(3, x->GetDim(3));
    return GRAPH_SUCCESS;
}

static ge::graphStatus SqueezeExpandRelu2dInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class SqueezeExpandRelu2d : public OpDef {
public:
    explicit SqueezeExpandRelu2d(const char* name) : OpDef(name)
    {
        const char* inputs[] = {"x", "squeeze_weight", "squeeze_bias", "expand1x1_weight", "expand1x1_bias",
                                "expand3x3_weight", "expand3x3_bias"};
        for (const char* in : inputs) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::SqueezeExpandRelu2dInferShape)
            .SetInferDataType(ge::SqueezeExpandRelu2dInferDataType);

        this->AICore().SetTiling(optiling::SqueezeExpandRelu2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SqueezeExpandRelu2d);
} // namespace ops
