#include "linear_rectified_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
constexpr int32_t BASE_M = 128;
constexpr int32_t BASE_N = 128;
}

ge::graphStatus LinearRectifiedScaleTilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));

    float divisor = 1.0f;
    if (auto attrs = context->GetAttrs()) {
        const float *d = attrs->GetAttrPointer<float>(0);
        if (d != nullptr) {
            divisor = *d;
        }
    }
    if (divisor == 0.0f) {
        return ge::GRAPH_FAILED;
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t aicNum = ascendcPlatform.GetCoreNumAic();

    // weight is stored (N, K) like a dense layer, so B is consumed transposed
    MultiCoreMatmulTiling mm(ascendcPlatform);
    mm.SetDim(aivNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    mm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);
    mm.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(true);
    mm.SetFixSplit(BASE_M < M ? BASE_M : -1, BASE_N < N ? BASE_N : -1, -1);
    mm.SetBufferSpace(-1, -1, -1);

    LinearRectifiedScaleTiling tiling;
    if (mm.GetTiling(tiling.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    int32_t scM = tiling.mmTiling.get_singleCoreM();
    int32_t scN = tiling.mmTiling.get_singleCoreN();
    uint32_t blocks = static_cast<uint32_t>(((M + scM - 1) / scM) * ((N + scN - 1) / scN));
    tiling.set_usedBlocks(blocks);
    tiling.set_invDivisor(1.0f / divisor);

    // mixed launch: one block = one cube core + its vector cores
    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendcPlatform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
