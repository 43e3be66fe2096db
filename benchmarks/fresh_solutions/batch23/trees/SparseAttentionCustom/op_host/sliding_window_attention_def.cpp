#include "sliding_window_attention_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus SwaInferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus SwaInferDtype(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class SlidingWindowAttention : public OpDef {
public:
    explicit SlidingWindowAttention(const char* name) : OpDef(name)
    {
        for (const char* n : {"query", "key", "value"}) {
            this->Input(n).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("attention_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_heads").AttrType(REQUIRED).Int();
        this->Attr("window").AttrType(REQUIRED).Int();

        this->SetInferShape(ge::SwaInferShape).SetInferDataType(ge::SwaInferDtype);
        this->AICore().SetTiling(optiling::SlidingWindowAttentionTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SlidingWindowAttention);
}
