#include "conv_batch_stat_norm_scale_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ConvBatchStatNormScaleTilingFunc(gert::TilingContext* context);
}

namespace ge {
static ge::graphStatus ConvBatchStatNormScaleInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* wt = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, wt->GetDim(0));
    y->SetDim(2, x->GetDim(2) - wt->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - wt->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus ConvBatchStatNormScaleInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ConvBatchStatNormScale : public OpDef {
public:
    explicit ConvBatchStatNormScale(const char* name) : OpDef(name)
    {
        const char* ins[] = {"x", "filter", "bias", "gamma", "beta"};
        for (const char* in : ins) {
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
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::ConvBatchStatNormScaleInferShape)
            .SetInferDataType(ge::ConvBatchStatNormScaleInferDataType);
        this->AICore().SetTiling(optiling::ConvBatchStatNormScaleTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvBatchStatNormScale);
}  // namespace ops
