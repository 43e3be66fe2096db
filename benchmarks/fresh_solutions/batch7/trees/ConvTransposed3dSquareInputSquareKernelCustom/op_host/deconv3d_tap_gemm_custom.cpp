#include "deconv3d_tap_gemm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    // x_pad: [N, Dp, Hp, Wp, Cin]   tap_weight: [K*K*K, Cin, Cout]
    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    const auto &ws = context->GetInputShape(1)->GetStorageShape();
    const auto *attrs = context->GetAttrs();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 3 || attrs == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *kPtr = attrs->GetAttrPointer<int64_t>(0);
    uint32_t k = static_cast<uint32_t>(*kPtr);

    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t dp = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t hp = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t wp = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t cin = static_cast<uint32_t>(xs.GetDim(4));
    uint32_t cout = static_cast<uint32_t>(ws.GetDim(2));
    if (static_cast<uint32_t>(ws.GetDim(0)) != k * k * k || static_cast<uint32_t>(ws.GetDim(1)) != cin) {
        return ge::GRAPH_FAILED;
    }
    // Hp carries one extra zero row that only absorbs the wrap-around reads
    uint32_t dout = dp - k + 1;
    uint32_t hout = hp - 1 - k + 1;
    uint32_t planeRows = hout * wp;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    matmul_tiling::MatmulApiTiling gemmTiling(platform);
    gemmTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    gemmTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    gemmTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    gemmTiling.SetShape(planeRows, cout, cin);
    gemmTiling.SetOrgShape(planeRows, cout, cin);
    gemmTiling.SetBias(false);
    gemmTiling.SetBufferSpace(-1, -1, -1);

    Deconv3dTapGemmTilingData tiling;
    if (gemmTiling.GetTiling(tiling.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t taskNum = n * dout;
    uint32_t aicNum = platform.GetCoreNumAic();
    uint32_t blockDim = taskNum < aicNum ? taskNum : aicNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_batch(n);
    tiling.set_padDepth(dp);
    tiling.set_padHeight(hp);
    tiling.set_padWidth(wp);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_kernel(k);
    tiling.set_outDepth(dout);
    tiling.set_planeRows(planeRows);
    tiling.set_taskNum(taskNum);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // matmul high level API needs the library system workspace
    size_t *wsSizes = context->GetWorkspaceSizes(1);
    wsSizes[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    const int64_t *kPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t k = *kPtr;
    gert::Shape *ys = context->GetOutputShape(0);
    // y: [N, Dout, Hout * Wp, Cout]; the Wp - Wout junk columns are cut by the caller
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1) - k + 1);
    ys->SetDim(2, (xs->GetDim(2) - k) * xs->GetDim(3));
    ys->SetDim(3, ws->GetDim(2));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Deconv3dTapGemmCustom : public OpDef {
public:
    explicit Deconv3dTapGemmCustom(const char *name) : OpDef(name)
    {
        this->Input("x_pad")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("tap_weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("kernel_size").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Deconv3dTapGemmCustom);
} // namespace ops
