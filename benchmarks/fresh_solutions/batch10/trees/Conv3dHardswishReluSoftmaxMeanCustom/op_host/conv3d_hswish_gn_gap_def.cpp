#include "conv3d_hswish_gn_gap_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus Conv3dHswishGnGapTilingFunc(gert::TilingContext* ctx);
}

namespace ge {
// y: [N, Cout]
static graphStatus Conv3dHswishGnGapInferShape(gert::InferShapeContext* ctx)
{
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, ctx->GetInputShape(0)->GetDim(0));
    y->SetDim(1, ctx->GetInputShape(1)->GetDim(0));
    return GRAPH_SUCCESS;
}
static graphStatus Conv3dHswishGnGapInferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Conv3dHswishGnGap : public OpDef {
public:
    explicit Conv3dHswishGnGap(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(OPTIONAL).Int(4);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::Conv3dHswishGnGapInferShape)
            .SetInferDataType(ge::Conv3dHswishGnGapInferDataType);
        this->AICore().SetTiling(optiling::Conv3dHswishGnGapTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv3dHswishGnGap);
}  // namespace ops
