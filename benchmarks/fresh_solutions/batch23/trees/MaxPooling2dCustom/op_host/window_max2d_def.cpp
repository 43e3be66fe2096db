#include "window_max2d_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus WindowMax2dTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus WindowMax2dShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    int64_t d = *attrs->GetAttrPointer<int64_t>(3);
    int64_t span = d * (k - 1) + 1;
    *y = *x;
    y->SetDim(2, (x->GetDim(2) + 2 * p - span) / s + 1);
    y->SetDim(3, (x->GetDim(3) + 2 * p - span) / s + 1);
    return GRAPH_SUCCESS;
}

static graphStatus WindowMax2dDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class WindowMax2d : public OpDef {
public:
    explicit WindowMax2d(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW})
            .UnknownShapeFormat({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("kernel_size").Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::WindowMax2dShape).SetInferDataType(ge::WindowMax2dDtype);
        this->AICore().SetTiling(optiling::WindowMax2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(WindowMax2d);
}  // namespace ops
