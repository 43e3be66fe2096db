/**
 * @file mat_mul_both_transposed_def.cpp
 * @brief Operator prototype of MatMulBothTransposed: c = a^T @ b^T with a:[K,M], b:[N,K], c:[M,N].
 */
#include "mat_mul_both_transposed_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus MatMulBothTransposedInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* c = context->GetOutputShape(0);
    if (a == nullptr || b == nullptr || c == nullptr || a->GetDimNum() != 2 || b->GetDimNum() != 2) {
        return GRAPH_FAILED;
    }
    if (a->GetDim(0) != b->GetDim(1)) {
        return GRAPH_FAILED;
    }
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(1));
    c->SetDim(1, b->GetDim(0));
    return GRAPH_SUCCESS;
}

static ge::graphStatus MatMulBothTransposedInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MatMulBothTransposed : public OpDef {
public:
    explicit MatMulBothTransposed(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::MatMulBothTransposedInferShape)
            .SetInferDataType(ge::MatMulBothTransposedInferDataType);

        this->AICore().SetTiling(optiling::MatMulBothTransposedTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatMulBothTransposed);
} // namespace ops
