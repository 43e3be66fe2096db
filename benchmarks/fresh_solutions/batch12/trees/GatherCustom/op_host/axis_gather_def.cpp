// AxisGather: out[..., j, ...] = self[..., index[..., j, ...], ...] along `dim`.
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus AxisGatherTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus AxisGatherInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(1);   // output takes the index shape
    return GRAPH_SUCCESS;
}
static graphStatus AxisGatherInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AxisGather : public OpDef {
public:
    explicit AxisGather(const char *name) : OpDef(name)
    {
        this->Input("self")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("index")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::AxisGatherInferShape).SetInferDataType(ge::AxisGatherInferDtype);
        this->AICore().SetTiling(optiling::AxisGatherTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AxisGather);
}  // namespace ops
