#include "ghost_vlad_pool_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus GhostVladPoolInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const int64_t k = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(2) * k);
    return GRAPH_SUCCESS;
}
static graphStatus GhostVladPoolInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class GhostVladPool : public OpDef {
public:
    explicit GhostVladPool(const char *name) : OpDef(name)
    {
        const char *inputs[] = {"x", "assign_weight", "bn_gamma", "bn_beta", "centers"};
        for (const char *in : inputs) {
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
        this->Attr("cluster_size").Int();
        this->Attr("bn_eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::GhostVladPoolInferShape).SetInferDataType(ge::GhostVladPoolInferDtype);
        this->AICore().SetTiling(optiling::GhostVladPoolTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GhostVladPool);
} // namespace ops
