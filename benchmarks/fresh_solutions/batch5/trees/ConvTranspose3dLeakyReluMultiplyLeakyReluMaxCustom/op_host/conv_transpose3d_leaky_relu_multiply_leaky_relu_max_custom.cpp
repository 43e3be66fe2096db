#include "conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustomTilingData tiling;
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    const float* slope = context->GetAttrs()->GetFloat(0);

    // kernel is specialised for k=3, stride=2, pad=1, output_padding=1, pool 2:
    // the pooled output grid coincides with the input grid.
    if (wShape.GetDim(2) != 3 || wShape.GetDim(3) != 3 || wShape.GetDim(4) != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xShape.GetDim(0), cin = xShape.GetDim(1);
    uint32_t d = xShape.GetDim(2), h = xShape.GetDim(3), w = xShape.GetDim(4);
    uint32_t cout = wShape.GetDim(1);
    if (w % 8 != 0) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_batch(n);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_inD(d);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_taskNum(n * cout * d);
    tiling.set_slope(slope ? *slope : 0.2f);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    context->SetBlockDim(plat.GetCoreNumAiv());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(1, ws->GetDim(1));   // spatial dims: (2*D) / 2 == D
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustom : public OpDef {
public:
    explicit ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("multiplier").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.2);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustom);
}
