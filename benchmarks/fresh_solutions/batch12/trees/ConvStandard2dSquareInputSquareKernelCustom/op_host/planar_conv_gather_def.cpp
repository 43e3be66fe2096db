#include "planar_conv_gather_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus PlanarConvGatherTiling(gert::TilingContext* ctx);
}

namespace ge {
static graphStatus PlanarConvGatherShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    auto attrs = ctx->GetAttrs();
    const int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t d = *attrs->GetAttrPointer<int64_t>(2);
    const int64_t k = w->GetDim(2);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, (x->GetDim(2) + 2 * p - d * (k - 1) - 1) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - d * (k - 1) - 1) / s + 1);
    return GRAPH_SUCCESS;
}
static graphStatus PlanarConvGatherDtype(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class PlanarConvGather : public OpDef {
public:
    explicit PlanarConvGather(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("filter").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Input("bias").ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("pad").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::PlanarConvGatherShape).SetInferDataType(ge::PlanarConvGatherDtype);
        this->AICore().SetTiling(optiling::PlanarConvGatherTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PlanarConvGather);
}  // namespace ops
