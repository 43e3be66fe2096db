/**
 * @file broadcast_maximum_def.cpp
 * @brief Operator prototype of BroadcastMaximum: y = max(a, b) with broadcasting.
 */
#include <algorithm>
#include "broadcast_maximum_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus BroadcastMaximumInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    if (a == nullptr || b == nullptr || y == nullptr) {
        return GRAPH_FAILED;
    }
    const size_t ra = a->GetDimNum();
    const size_t rb = b->GetDimNum();
    const size_t rank = std::max(ra, rb);
    y->SetDimNum(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = (i >= rank - ra) ? a->GetDim(i - (rank - ra)) : 1;
        const int64_t db = (i >= rank - rb) ? b->GetDim(i - (rank - rb)) : 1;
        if (da != db && da != 1 && db != 1) {
            return GRAPH_FAILED;
        }
        y->SetDim(i, da == 1 ? db : da);
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus BroadcastMaximumInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class BroadcastMaximum : public OpDef {
public:
    explicit BroadcastMaximum(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::BroadcastMaximumInferShape)
            .SetInferDataType(ge::BroadcastMaximumInferDataType);

        this->AICore().SetTiling(optiling::BroadcastMaximumTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(BroadcastMaximum);
} // namespace ops
