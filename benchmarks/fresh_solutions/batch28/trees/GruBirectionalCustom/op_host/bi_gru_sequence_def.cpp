#include "bi_gru_sequence_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus BiGruSequenceInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *h0 = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    gert::Shape *hn = ctx->GetOutputShape(1);
    if (x == nullptr || h0 == nullptr || y == nullptr || hn == nullptr || x->GetDimNum() != 3) {
        return GRAPH_FAILED;
    }
    const int64_t *hidden = ctx->GetAttrs()->GetInt(0);
    if (hidden == nullptr) {
        return GRAPH_FAILED;
    }
    y->SetDimNum(3);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, 2 * (*hidden));
    *hn = *h0;
    return GRAPH_SUCCESS;
}

static graphStatus BiGruSequenceInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    ctx->SetOutputDataType(1, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class BiGruSequence : public OpDef {
public:
    explicit BiGruSequence(const char *name) : OpDef(name)
    {
        this->Input("x")            // [T, B, I]
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0")           // [2L, B, H]
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("params")       // flat, see README for packing order
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")           // [T, B, 2H]
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("hn")          // [2L, B, H]
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("hidden_size").AttrType(REQUIRED).Int();
        this->Attr("num_layers").AttrType(OPTIONAL).Int(1);
        this->Attr("has_bias").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::BiGruSequenceInferShape).SetInferDataType(ge::BiGruSequenceInferDtype);
        this->AICore().SetTiling(optiling::BiGruSequenceTiling);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(BiGruSequence);
}  // namespace ops
