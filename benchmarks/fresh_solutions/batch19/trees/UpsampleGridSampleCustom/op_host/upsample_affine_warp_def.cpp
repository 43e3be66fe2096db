#include <cmath>
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus UpsampleAffineWarpTilingFunc(gert::TilingContext *context);
}

namespace ge {
static graphStatus UpsampleAffineWarpInferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    gert::Shape *y = context->GetOutputShape(0);
    float scale = 2.0f;
    if (const float *s = context->GetAttrs()->GetAttrPointer<float>(0)) {
        scale = *s;
    }
    *y = *x;
    y->SetDim(2, static_cast<int64_t>(std::floor(x->GetDim(2) * scale)));
    y->SetDim(3, static_cast<int64_t>(std::floor(x->GetDim(3) * scale)));
    return GRAPH_SUCCESS;
}
static graphStatus UpsampleAffineWarpInferDtype(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class UpsampleAffineWarp : public OpDef {
public:
    explicit UpsampleAffineWarp(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("theta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(2.0f);

        this->SetInferShape(ge::UpsampleAffineWarpInferShape).SetInferDataType(ge::UpsampleAffineWarpInferDtype);
        this->AICore().SetTiling(optiling::UpsampleAffineWarpTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UpsampleAffineWarp);
}
