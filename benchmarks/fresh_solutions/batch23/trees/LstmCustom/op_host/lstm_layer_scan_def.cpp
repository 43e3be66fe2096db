#include "lstm_layer_scan_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus LstmLayerScanShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* h0 = ctx->GetInputShape(1);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(3);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, h0->GetDim(h0->GetDimNum() - 1));
    *ctx->GetOutputShape(1) = *h0;
    *ctx->GetOutputShape(2) = *h0;
    return GRAPH_SUCCESS;
}
static ge::graphStatus LstmLayerScanDtype(gert::InferDataTypeContext* ctx)
{
    for (size_t i = 0; i < 3; ++i) {
        ctx->SetOutputDataType(i, ctx->GetInputDataType(0));
    }
    return GRAPH_SUCCESS;
}
}

namespace ops {
class LstmLayerScan : public OpDef {
public:
    explicit LstmLayerScan(const char* name) : OpDef(name)
    {
        auto addIn = [this](const char* n) {
            this->Input(n).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        };
        addIn("x");       // (B, T, I)
        addIn("h0");      // (B, H)
        addIn("c0");      // (B, H)
        addIn("w_ih");    // (4H, I)  gate order i, f, g, o
        addIn("w_hh");    // (4H, H)
        addIn("b_ih");    // (4H)
        addIn("b_hh");    // (4H)
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_n").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c_n").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::LstmLayerScanShape).SetInferDataType(ge::LstmLayerScanDtype);
        this->AICore().SetTiling(optiling::LstmLayerScanTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LstmLayerScan);
}
