#include "matmul_swish_scaling_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
// base block produced by one Iterate(); it lands in UB for the swish epilogue
constexpr int32_t BASE_M = 64;
constexpr int32_t BASE_N = 128;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputTensor(0)->GetOriginShape();   // (M, K)
    auto wShape = context->GetInputTensor(1)->GetOriginShape();   // (N, K), nn.Linear layout
    int32_t M = xShape.GetDim(0);
    int32_t K = xShape.GetDim(1);
    int32_t N = wShape.GetDim(0);

    float scale = 2.0f;
    const float *scaleAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    if (scaleAttr != nullptr) {
        scale = *scaleAttr;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = platform.GetCoreNumAiv();

    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(aivNum);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(true);
    mm.SetFixSplit(BASE_M, BASE_N, -1);
    mm.SetBufferSpace(-1, -1, -1);

    MatmulSwishScalingCustomTilingData tiling;
    if (mm.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    int32_t usedDim = 0, mDim = 0, nDim = 0;
    mm.GetCoreNum(usedDim, mDim, nDim);
    if (usedDim <= 0) {
        usedDim = 1;
    }

    // temp space for Sigmoid on one base block
    uint32_t blockElems = static_cast<uint32_t>(tiling.cubeTilingData.get_baseM() *
                                                tiling.cubeTilingData.get_baseN());
    std::vector<int64_t> dims = {static_cast<int64_t>(blockElems)};
    ge::Shape blockShape(dims);
    uint32_t maxTmp = 0;
    uint32_t minTmp = 0;
    AscendC::GetSigmoidMaxMinTmpSize(blockShape, sizeof(float), false, maxTmp, minTmp);
    // UB budget: c block (VECIN) + sigmoid result + 2 output buffers
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t used = 4ULL * blockElems * sizeof(float);
    uint64_t left = ubSize > used ? ubSize - used : 0;
    uint32_t tmpSize = maxTmp;
    if (tmpSize > left) {
        tmpSize = static_cast<uint32_t>(left);
    }
    if (tmpSize < minTmp) {
        tmpSize = minTmp;
    }

    tiling.set_scalingFactor(scale);
    tiling.set_sigmoidTmpSize(tmpSize);
    tiling.set_usedCoreNum(static_cast<uint32_t>(usedDim));

    context->SetBlockDim((static_cast<uint32_t>(usedDim) + 1) / 2);   // AIC:AIV = 1:2
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MatmulSwishScalingCustom : public OpDef {
public:
    explicit MatmulSwishScalingCustom(const char *name) : OpDef(name)
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
        this->Attr("scaling_factor").AttrType(OPTIONAL).Float(2.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulSwishScalingCustom);
} // namespace ops
