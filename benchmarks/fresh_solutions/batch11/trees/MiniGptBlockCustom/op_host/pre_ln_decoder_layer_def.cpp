#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus PreLnDecoderLayerTiling(gert::TilingContext* ctx);
}

namespace ge {
static graphStatus PreLnDecoderLayerShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus PreLnDecoderLayerType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class PreLnDecoderLayer : public OpDef {
public:
    explicit PreLnDecoderLayer(const char* name) : OpDef(name)
    {
        const char* inputs[] = {"x",          "ln1_gamma", "ln1_beta", "qkv_weight", "qkv_bias",
                                "proj_weight", "proj_bias", "fc_weight", "fc_bias",    "out_weight",
                                "out_bias",    "ln2_gamma", "ln2_beta"};
        for (const char* in : inputs) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_heads").AttrType(REQUIRED).Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::PreLnDecoderLayerShape).SetInferDataType(ge::PreLnDecoderLayerType);
        this->AICore().SetTiling(optiling::PreLnDecoderLayerTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PreLnDecoderLayer);
}
