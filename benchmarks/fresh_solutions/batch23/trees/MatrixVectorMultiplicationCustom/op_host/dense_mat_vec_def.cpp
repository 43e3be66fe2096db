#include "dense_mat_vec_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus DenseMatVecInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, a->GetDim(0));
    y->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static graphStatus DenseMatVecInferDtype(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class DenseMatVec : public OpDef {
public:
    explicit DenseMatVec(const char* name) : OpDef(name)
    {
        this->Input("matrix").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("vector").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::DenseMatVecInferShape).SetInferDataType(ge::DenseMatVecInferDtype);
        this->AICore().SetTiling(optiling::DenseMatVecTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DenseMatVec);
}
