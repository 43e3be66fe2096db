#include "resize_bilinear2d_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus ResizeBilinear2dTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus ResizeBilinear2dInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    auto *size = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    if (x->GetDimNum() != 4 || size == nullptr || size->GetSize() != 2) {
        return GRAPH_FAILED;
    }
    const int64_t *hw = reinterpret_cast<const int64_t *>(size->GetData());
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, hw[0]);
    y->SetDim(3, hw[1]);
    return GRAPH_SUCCESS;
}

static graphStatus ResizeBilinear2dInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ResizeBilinear2d : public OpDef {
public:
    explicit ResizeBilinear2d(const char *name) : OpDef(name)
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
        this->Attr("size").AttrType(REQUIRED).ListInt();
        this->Attr("align_corners").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::ResizeBilinear2dInferShape).SetInferDataType(ge::ResizeBilinear2dInferDtype);
        this->AICore().SetTiling(optiling::ResizeBilinear2dTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ResizeBilinear2d);
}  // namespace ops
