#include "linear_bias_act_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ACT_IDENTITY = 0;
constexpr uint32_t ACT_RELU = 1;
constexpr uint32_t EPILOGUE_CHUNK = 4096; // elements per ReLU pass (16KB fp32)

matmul_tiling::DataType ToMmType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
}
} // namespace

ge::graphStatus LinearBiasActTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *wShape = context->GetInputShape(1);
    if (xShape == nullptr || wShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const auto &xs = xShape->GetStorageShape();
    const auto &ws = wShape->GetStorageShape();
    if (xs.GetDimNum() < 2 || ws.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    // All leading dims of x are folded into M.
    int64_t k = xs.GetDim(xs.GetDimNum() - 1);
    int64_t m = xs.GetShapeSize() / k;
    int64_t n = ws.GetDim(0);
    if (ws.GetDim(1) != k) {
        return ge::GRAPH_FAILED;
    }

    uint32_t act = ACT_RELU;
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    if (attrs != nullptr) {
        const bool *useRelu = attrs->GetAttrPointer<bool>(0);
        if (useRelu != nullptr && !(*useRelu)) {
            act = ACT_IDENTITY;
        }
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = platform.GetCoreNumAic();
    uint32_t aivNum = platform.GetCoreNumAiv();

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    ge::DataType biasDt = context->GetInputDesc(2)->GetDataType();

    // Weight is stored [N, K] like a framework Linear, so B is consumed transposed.
    matmul_tiling::MultiCoreMatmulTiling mmTiler(platform);
    mmTiler.SetDim(aivNum);
    mmTiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, ToMmType(dt), false);
    mmTiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, ToMmType(dt), true);
    mmTiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, ToMmType(dt));
    mmTiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, ToMmType(biasDt));
    mmTiler.SetShape(m, n, k);
    mmTiler.SetOrgShape(m, n, k);
    mmTiler.SetBias(true);
    mmTiler.SetBufferSpace(-1, -1, -1);

    LinearBiasActTilingData tiling;
    if (mmTiler.GetTiling(tiling.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_rows(static_cast<uint32_t>(m));
    tiling.set_inFeatures(static_cast<uint32_t>(k));
    tiling.set_outFeatures(static_cast<uint32_t>(n));
    tiling.set_actType(act);
    tiling.set_actChunk(EPILOGUE_CHUNK);

    // Mix kernel: one block = 1 AIC + 2 AIV.
    context->SetBlockDim(aicNum);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
