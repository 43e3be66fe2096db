#include "cosine_dissimilarity_mean_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus CdmInferShape(gert::InferShapeContext *context)
{
    context->GetOutputShape(0)->SetDimNum(0);
    return GRAPH_SUCCESS;
}
static graphStatus CdmInferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, DT_FLOAT);
    return GRAPH_SUCCESS;
}
}

namespace ops {
class CosineDissimilarityMean : public OpDef {
public:
    explicit CosineDissimilarityMean(const char *name) : OpDef(name)
    {
        this->Input("input1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("input2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-8f);

        this->SetInferShape(ge::CdmInferShape).SetInferDataType(ge::CdmInferDataType);
        this->AICore().SetTiling(optiling::CosineDissimilarityMeanTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CosineDissimilarityMean);
}
