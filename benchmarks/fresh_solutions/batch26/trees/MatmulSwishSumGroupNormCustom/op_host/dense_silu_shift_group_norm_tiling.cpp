#include "dense_silu_shift_group_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t UB_EPILOGUE_BUDGET = 160 * 1024; // bytes left for the vector epilogue
constexpr uint32_t EPILOGUE_BUFS = 6;               // y(x2), out(x2), shift, gamma/beta scratch
constexpr uint32_t ATTR_GROUPS = 0;
constexpr uint32_t ATTR_EPS = 1;
} // namespace

ge::graphStatus DenseSiluShiftGroupNormTilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &wShape = context->GetInputShape(1)->GetStorageShape();
    if (xShape.GetDimNum() != 2 || wShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t m = static_cast<uint32_t>(xShape.GetDim(0));
    const uint32_t k = static_cast<uint32_t>(xShape.GetDim(1));
    const uint32_t n = static_cast<uint32_t>(wShape.GetDim(0));
    if (static_cast<uint32_t>(wShape.GetDim(1)) != k) {
        return ge::GRAPH_FAILED;
    }

    const auto *attrs = context->GetAttrs();
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(ATTR_GROUPS);
    const float eps = *attrs->GetAttrPointer<float>(ATTR_EPS);
    if (groups <= 0 || n % static_cast<uint32_t>(groups) != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t groupSize = n / static_cast<uint32_t>(groups);

    // Mixed kernel (1 cube : 2 vector). Every vector core owns a slice of
    // whole rows, drives the cube for that slice and runs the epilogue on it,
    // so the group statistics never need cross-core communication.
    uint32_t aivNum = platform.GetCoreNumAiv();
    if (aivNum == 0) {
        aivNum = 1;
    }
    uint32_t rowsPerCore = (m + aivNum - 1) / aivNum;
    const uint32_t usedCores = (m + rowsPerCore - 1) / rowsPerCore;

    // how many groups fit in one epilogue pass (element count kept 8-aligned)
    uint32_t alignedGroup = (groupSize + 7) / 8 * 8;
    uint32_t groupsPerTile = UB_EPILOGUE_BUDGET / (EPILOGUE_BUFS * alignedGroup * sizeof(float));
    if (groupsPerTile == 0) {
        return ge::GRAPH_FAILED; // a single group does not fit, unsupported
    }
    if (groupsPerTile > static_cast<uint32_t>(groups)) {
        groupsPerTile = static_cast<uint32_t>(groups);
    }
    // only whole-row-aligned groups keep the copy simple when groupSize is aligned
    if (groupSize % 8 != 0) {
        groupsPerTile = 1;
    }

    DenseSiluShiftGroupNormTilingData tiling;
    matmul_tiling::MatmulApiTiling mm(platform);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetOrgShape(m, n, k);
    mm.SetShape(rowsPerCore, n, k);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(tiling.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_batch(m);
    tiling.set_inFeatures(k);
    tiling.set_outFeatures(n);
    tiling.set_numGroups(static_cast<uint32_t>(groups));
    tiling.set_groupSize(groupSize);
    tiling.set_groupsPerTile(groupsPerTile);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_usedCores(usedCores);
    tiling.set_epsilon(eps);

    // block dim counts cube cores in mixed mode (two vector cores each)
    context->SetBlockDim((usedCores + 1) / 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // system workspace for the matmul library + the pre-activation matrix M x N
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(m) * n * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
