#include "register/op_def_registry.h"
#include "streamed_row_softmax_tiling.h"

namespace optiling {
ge::graphStatus StreamedRowSoftmaxTiling(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus SrsInferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus SrsInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class StreamedRowSoftmax : public OpDef {
public:
    explicit StreamedRowSoftmax(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::SrsInferShape).SetInferDataType(ge::SrsInferType);
        this->AICore().SetTiling(optiling::StreamedRowSoftmaxTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StreamedRowSoftmax);
}  // namespace ops
