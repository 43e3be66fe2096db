/**
 * OpDef for VolumetricConvDirect: y = conv3d(x, weight) (+ bias), cubic kernel,
 * isotropic stride / padding / dilation, grouped channels.
 */
#include "volumetric_conv_direct_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus VolumetricConvDirectTilingFunc(gert::TilingContext* context);
}

namespace ge {
static graphStatus VolumetricConvDirectInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t d = *attrs->GetAttrPointer<int64_t>(2);
    const int64_t k = w->GetDim(2);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, (x->GetDim(i) + 2 * p - d * (k - 1) - 1) / s + 1);
    }
    return GRAPH_SUCCESS;
}

static graphStatus VolumetricConvDirectInferDtype(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class VolumetricConvDirect : public OpDef {
public:
    explicit VolumetricConvDirect(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::VolumetricConvDirectInferShape)
            .SetInferDataType(ge::VolumetricConvDirectInferDtype);
        this->AICore().SetTiling(optiling::VolumetricConvDirectTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(VolumetricConvDirect);
}  // namespace ops
