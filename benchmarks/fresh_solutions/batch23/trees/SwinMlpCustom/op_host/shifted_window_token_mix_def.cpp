#include "shifted_window_token_mix_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ShiftedWindowTokenMixTiling(gert::TilingContext *context);
}

namespace ge {
static ge::graphStatus SwtmInferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus SwtmInferType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ShiftedWindowTokenMix : public OpDef {
public:
    explicit ShiftedWindowTokenMix(const char *name) : OpDef(name)
    {
        // tokens [B, H*W, C]
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        // layer-norm affine parameters [C]
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        // per-head token mixing matrix [heads, win*win, win*win]
        this->Input("mix_weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        // per-head, per-position bias [heads * win*win]
        this->Input("mix_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("height").Int();
        this->Attr("width").Int();
        this->Attr("num_heads").Int();
        this->Attr("window_size").AttrType(OPTIONAL).Int(7);
        this->Attr("shift_size").AttrType(OPTIONAL).Int(0);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::SwtmInferShape).SetInferDataType(ge::SwtmInferType);
        this->AICore().SetTiling(optiling::ShiftedWindowTokenMixTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ShiftedWindowTokenMix);
}  // namespace ops
