#include "conv_standard_3d_square_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard3dSquareInputSquareKernelCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(0);
    uint32_t k = ws.GetDim(2);
    // stride 1, no padding, dilation 1
    uint32_t od = d - k + 1, oh = h - k + 1, ow = w - k + 1;
    uint32_t kDim = cin * k * k * k;
    uint32_t plane = oh * ow;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = plat.GetCoreNumAic();
    uint32_t aivNum = plat.GetCoreNumAiv();

    // one output depth slice per matmul: W[cout x kDim] * col[kDim x plane]
    MatmulApiTiling cubeTiling(plat);
    cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(cout, plane, kDim);
    cubeTiling.SetOrgShape(cout, plane, kDim);
    cubeTiling.SetBias(false);
    cubeTiling.SetBufferSpace(-1, -1, -1);
    if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_batch(n);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_inD(d);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_ksize(k);
    tiling.set_outD(od);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_kDim(kDim);
    tiling.set_planeSize(plane);

    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // system workspace + one im2col slice per vector core
    size_t* wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = plat.GetLibApiWorkSpaceSize() + (size_t)aivNum * kDim * plane * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    int64_t k = ws->GetDim(2);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - k + 1);
    ys->SetDim(3, xs->GetDim(3) - k + 1);
    ys->SetDim(4, xs->GetDim(4) - k + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard3dSquareInputSquareKernelCustom : public OpDef {
public:
    explicit ConvStandard3dSquareInputSquareKernelCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvStandard3dSquareInputSquareKernelCustom);
}
