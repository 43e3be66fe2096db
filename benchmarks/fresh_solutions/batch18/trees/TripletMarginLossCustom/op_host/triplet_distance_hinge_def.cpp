#include "triplet_distance_hinge_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus TdhInferShape(gert::InferShapeContext *ctx)
{
    gert::Shape *out = ctx->GetOutputShape(0);
    out->SetDimNum(0); // scalar loss
    return GRAPH_SUCCESS;
}
static graphStatus TdhInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, DT_FLOAT);
    return GRAPH_SUCCESS;
}
}

namespace ops {
class TripletDistanceHinge : public OpDef {
public:
    explicit TripletDistanceHinge(const char *name) : OpDef(name)
    {
        const char *ins[] = {"anchor", "positive", "negative"};
        for (const char *nm : ins) {
            this->Input(nm)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("margin").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-6f);

        this->SetInferShape(ge::TdhInferShape).SetInferDataType(ge::TdhInferDtype);
        this->AICore().SetTiling(optiling::TripletDistanceHingeTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TripletDistanceHinge);
}
