#include "bilinear_grid_warp_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus BilinearGridWarpTilingFunc(gert::TilingContext* context);
}

namespace ge {
// y: (N, C, Hout, Wout) where grid is (N, Hout, Wout, 2)
static graphStatus BilinearGridWarpInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* grid = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, grid->GetDim(1));
    y->SetDim(3, grid->GetDim(2));
    return GRAPH_SUCCESS;
}
static graphStatus BilinearGridWarpInferDtype(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class BilinearGridWarp : public OpDef {
public:
    explicit BilinearGridWarp(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("grid")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("align_corners").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::BilinearGridWarpInferShape).SetInferDataType(ge::BilinearGridWarpInferDtype);
        this->AICore().SetTiling(optiling::BilinearGridWarpTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BilinearGridWarp);
}  // namespace ops
