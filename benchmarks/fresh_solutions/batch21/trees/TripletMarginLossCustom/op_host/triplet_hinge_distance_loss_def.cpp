/**
 * Operator definition: TripletHingeDistanceLoss
 *   loss = mean_i max(||a_i - p_i + eps||_2 - ||a_i - n_i + eps||_2 + margin, 0)
 */
#include "triplet_hinge_distance_loss_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static ge::graphStatus TripletHingeDistanceLossInferShape(gert::InferShapeContext *context)
{
    gert::Shape *out = context->GetOutputShape(0);
    out->SetDimNum(0);   // scalar loss
    return GRAPH_SUCCESS;
}

static ge::graphStatus TripletHingeDistanceLossInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TripletHingeDistanceLoss : public OpDef {
public:
    explicit TripletHingeDistanceLoss(const char *name) : OpDef(name)
    {
        this->Input("anchor")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("positive")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("negative")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("margin").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-6f);

        this->SetInferShape(ge::TripletHingeDistanceLossInferShape)
            .SetInferDataType(ge::TripletHingeDistanceLossInferDtype);
        this->AICore().SetTiling(optiling::TripletHingeDistanceLossTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(TripletHingeDistanceLoss);
}  // namespace ops
