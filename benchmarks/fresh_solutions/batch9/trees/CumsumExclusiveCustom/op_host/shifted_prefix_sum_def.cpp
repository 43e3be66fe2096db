#include "register/op_def_registry.h"

namespace ops {
ge::graphStatus ShiftedPrefixSumTiling(gert::TilingContext *context);

static ge::graphStatus ShiftedPrefixSumInferShape(gert::InferShapeContext *context)
{
    // output has exactly the input shape
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus ShiftedPrefixSumInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}

class ShiftedPrefixSum : public OpDef {
public:
    explicit ShiftedPrefixSum(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("axis").AttrType(OPTIONAL).Int(-1);

        this->SetInferShape(ShiftedPrefixSumInferShape).SetInferDataType(ShiftedPrefixSumInferDtype);
        this->AICore().SetTiling(ShiftedPrefixSumTiling);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};

OP_ADD(ShiftedPrefixSum);
} // namespace ops
