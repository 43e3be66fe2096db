#include "exclusive_scan_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ExclusiveScanShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus ExclusiveScanDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ExclusiveScan : public OpDef {
public:
    explicit ExclusiveScan(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(0);
        this->SetInferShape(ge::ExclusiveScanShape).SetInferDataType(ge::ExclusiveScanDtype);
        this->AICore().SetTiling(optiling::ExclusiveScanTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ExclusiveScan);
}  // namespace ops
