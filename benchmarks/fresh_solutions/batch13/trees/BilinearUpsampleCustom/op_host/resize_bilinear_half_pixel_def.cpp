#include <cmath>
#include "resize_bilinear_half_pixel_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ResizeBilinearHalfPixelInferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    const float sh = *attrs->GetAttrPointer<float>(0);
    const float sw = *attrs->GetAttrPointer<float>(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    *y = *x;
    y->SetDim(2, static_cast<int64_t>(std::floor(x->GetDim(2) * static_cast<double>(sh))));
    y->SetDim(3, static_cast<int64_t>(std::floor(x->GetDim(3) * static_cast<double>(sw))));
    return GRAPH_SUCCESS;
}
static graphStatus ResizeBilinearHalfPixelInferType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ResizeBilinearHalfPixel : public OpDef {
public:
    explicit ResizeBilinearHalfPixel(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_NCHW, ge::FORMAT_NCHW});
        this->Attr("scale_h").AttrType(OPTIONAL).Float(2.0f);
        this->Attr("scale_w").AttrType(OPTIONAL).Float(2.0f);

        this->SetInferShape(ge::ResizeBilinearHalfPixelInferShape)
            .SetInferDataType(ge::ResizeBilinearHalfPixelInferType);
        this->AICore().SetTiling(optiling::ResizeBilinearHalfPixelTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ResizeBilinearHalfPixel);
}
