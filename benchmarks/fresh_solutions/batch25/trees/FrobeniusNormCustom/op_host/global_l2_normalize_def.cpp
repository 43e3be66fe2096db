#include "global_l2_normalize_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus GlobalL2NormalizeTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus GlobalL2NormalizeInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus GlobalL2NormalizeInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class GlobalL2Normalize : public OpDef {
public:
    explicit GlobalL2Normalize(const char *name) : OpDef(name)
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
        this->Attr("eps").AttrType(OPTIONAL).Float(0.0f);

        this->SetInferShape(ge::GlobalL2NormalizeInferShape)
            .SetInferDataType(ge::GlobalL2NormalizeInferDataType);
        this->AICore().SetTiling(optiling::GlobalL2NormalizeTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GlobalL2Normalize);
}  // namespace ops
