#include "linear_scale_batch_norm_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus LinearScaleBatchNormInferShape(gert::InferShapeContext *context)
{
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(2);
    out->SetDim(0, context->GetInputShape(0)->GetDim(0));
    out->SetDim(1, context->GetInputShape(1)->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus LinearScaleBatchNormInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class LinearScaleBatchNorm : public OpDef {
public:
    explicit LinearScaleBatchNorm(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::LinearScaleBatchNormInferShape)
            .SetInferDataType(ge::LinearScaleBatchNormInferDtype);
        this->AICore().SetTiling(optiling::LinearScaleBatchNormTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LinearScaleBatchNorm);
}
