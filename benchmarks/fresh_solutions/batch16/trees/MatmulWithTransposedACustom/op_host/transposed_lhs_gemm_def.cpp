/**
 * OpDef for TransposedLhsGemm: c = transpose(a) @ b
 *   a : [K, M]
 *   b : [K, N]
 *   c : [M, N]
 */
#include "transposed_lhs_gemm_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus TransposedLhsGemmTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus TransposedLhsGemmInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *aShape = context->GetInputShape(0);
    const gert::Shape *bShape = context->GetInputShape(1);
    gert::Shape *cShape = context->GetOutputShape(0);
    if (aShape == nullptr || bShape == nullptr || cShape == nullptr) {
        return GRAPH_FAILED;
    }
    if (aShape->GetDimNum() != 2 || bShape->GetDimNum() != 2) {
        return GRAPH_FAILED;
    }
    cShape->SetDimNum(2);
    cShape->SetDim(0, aShape->GetDim(1));
    cShape->SetDim(1, bShape->GetDim(1));
    return GRAPH_SUCCESS;
}

static graphStatus TransposedLhsGemmInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class TransposedLhsGemm : public OpDef {
public:
    explicit TransposedLhsGemm(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::TransposedLhsGemmInferShape)
            .SetInferDataType(ge::TransposedLhsGemmInferDtype);

        this->AICore().SetTiling(optiling::TransposedLhsGemmTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(TransposedLhsGemm);
} // namespace ops
