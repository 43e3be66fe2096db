// AaBilinearResize: anti-aliased bilinear (triangle filter) resampling of NCHW images.
#include "aa_bilinear_resize_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus AaBilinearResizeTilingFunc(gert::TilingContext *ctx);
}

namespace ge {
static graphStatus AaResizeInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    const gert::ContinuousVector *size = ctx->GetAttrs()->GetListInt(0);
    const int64_t *sz = reinterpret_cast<const int64_t *>(size->GetData());
    *y = *x;
    y->SetDim(2, sz[0]);
    y->SetDim(3, sz[1]);
    return GRAPH_SUCCESS;
}
static graphStatus AaResizeInferDtype(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AaBilinearResize : public OpDef {
public:
    explicit AaBilinearResize(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("size").ListInt();   // [out_h, out_w]

        this->SetInferShape(ge::AaResizeInferShape).SetInferDataType(ge::AaResizeInferDtype);
        this->AICore().SetTiling(optiling::AaBilinearResizeTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AaBilinearResize);
}  // namespace ops
