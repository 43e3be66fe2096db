/**
 * @file volumetric_deconv_def.cpp
 * Operator prototype of VolumetricDeconv: 3-D transposed convolution
 * (a.k.a. fractionally strided / "deconvolution") on NCDHW tensors.
 */
#include "volumetric_deconv_tiling.h"
#include "register/op_def_registry.h"

namespace ge {
static int64_t AttrAt(const gert::ContinuousVector *v, size_t i, int64_t dflt)
{
    if (v == nullptr || v->GetSize() <= i) {
        return dflt;
    }
    return reinterpret_cast<const int64_t *>(v->GetData())[i];
}

static graphStatus VolumetricDeconvInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    if (x == nullptr || w == nullptr || y == nullptr || x->GetDimNum() != 5 || w->GetDimNum() != 5) {
        return GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    const auto *strides = attrs->GetListInt(0);
    const auto *pads = attrs->GetListInt(1);
    const auto *outPads = attrs->GetListInt(2);
    const int64_t *groups = attrs->GetAttrPointer<int64_t>(3);
    const int64_t g = groups == nullptr ? 1 : *groups;

    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * g);
    for (size_t i = 0; i < 3; ++i) {
        int64_t len = (x->GetDim(2 + i) - 1) * AttrAt(strides, i, 1) - 2 * AttrAt(pads, i, 0) +
                      w->GetDim(2 + i) + AttrAt(outPads, i, 0);
        y->SetDim(2 + i, len);
    }
    return GRAPH_SUCCESS;
}

static graphStatus VolumetricDeconvInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class VolumetricDeconv : public OpDef {
public:
    explicit VolumetricDeconv(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("strides").AttrType(OPTIONAL).ListInt({1, 1, 1});
        this->Attr("pads").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("output_padding").AttrType(OPTIONAL).ListInt({0, 0, 0});
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::VolumetricDeconvInferShape).SetInferDataType(ge::VolumetricDeconvInferDtype);
        this->AICore().SetTiling(optiling::VolumetricDeconvTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(VolumetricDeconv);
}  // namespace ops
