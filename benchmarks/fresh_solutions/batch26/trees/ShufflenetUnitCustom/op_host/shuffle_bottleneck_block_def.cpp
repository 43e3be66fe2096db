#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ShuffleBottleneckBlockTiling(gert::TilingContext *context);
}

namespace ge {
static graphStatus ShuffleBottleneckBlockInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w3 = ctx->GetInputShape(7);
    gert::Shape *y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(1, w3->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus ShuffleBottleneckBlockInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ShuffleBottleneckBlock : public OpDef {
public:
    explicit ShuffleBottleneckBlock(const char *name) : OpDef(name)
    {
        AddTensor("x", REQUIRED);
        AddTensor("conv1_weight", REQUIRED);     // [Cmid, Cin/g, 1, 1]
        AddTensor("bn1_scale", REQUIRED);        // [Cmid] folded gamma / sqrt(var + eps)
        AddTensor("bn1_bias", REQUIRED);         // [Cmid] folded beta - mean * scale
        AddTensor("dw_weight", REQUIRED);        // [Cmid, 1, 3, 3]
        AddTensor("bn2_scale", REQUIRED);
        AddTensor("bn2_bias", REQUIRED);
        AddTensor("conv3_weight", REQUIRED);     // [Cout, Cmid/g, 1, 1]
        AddTensor("bn3_scale", REQUIRED);
        AddTensor("bn3_bias", REQUIRED);
        AddTensor("proj_weight", OPTIONAL);      // [Cout, Cin, 1, 1]
        AddTensor("proj_scale", OPTIONAL);
        AddTensor("proj_bias", OPTIONAL);
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("groups").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::ShuffleBottleneckBlockInferShape)
            .SetInferDataType(ge::ShuffleBottleneckBlockInferDtype);
        this->AICore().SetTiling(optiling::ShuffleBottleneckBlockTiling);
        this->AICore().AddConfig("ascend910b");
    }

private:
    void AddTensor(const char *name, Option opt)
    {
        this->Input(name)
            .ParamType(opt)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
    }
};
OP_ADD(ShuffleBottleneckBlock);
} // namespace ops
