#include "deconv_pool_clamp_gap_tanh_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus DeconvPoolClampGapTanhTilingFunc(gert::TilingContext* context);
}

namespace ge {
// y: [N, Cout, 1, 1]
static ge::graphStatus DeconvPoolClampGapTanhInferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, 1);
    y->SetDim(3, 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus DeconvPoolClampGapTanhInferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DeconvPoolClampGapTanh : public OpDef {
public:
    explicit DeconvPoolClampGapTanh(const char* name) : OpDef(name)
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
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("pool_kernel").AttrType(OPTIONAL).Int(2);
        this->Attr("pool_stride").AttrType(OPTIONAL).Int(2);
        this->Attr("clamp_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clamp_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::DeconvPoolClampGapTanhInferShape)
            .SetInferDataType(ge::DeconvPoolClampGapTanhInferDataType);

        this->AICore().SetTiling(optiling::DeconvPoolClampGapTanhTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DeconvPoolClampGapTanh);
}  // namespace ops
