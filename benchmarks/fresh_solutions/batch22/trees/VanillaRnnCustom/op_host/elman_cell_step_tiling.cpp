#include "elman_cell_step_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
using matmul_tiling::CubeFormat;
using matmul_tiling::MultiCoreMatmulTiling;
using matmul_tiling::TPosition;
constexpr auto F32 = matmul_tiling::DataType::DT_FLOAT;

// A [M, K] row-major (row stride ka), B^T stored as [N, kb] row-major
int64_t MakeGemmTiling(const platform_ascendc::PlatformAscendC &plat, uint32_t cores, int32_t m, int32_t n,
                       int32_t k, int32_t ka, int32_t kb, bool bias, TCubeTiling &dst)
{
    MultiCoreMatmulTiling t(plat);
    t.SetDim(cores);
    t.SetAType(TPosition::GM, CubeFormat::ND, F32, false);
    t.SetBType(TPosition::GM, CubeFormat::ND, F32, true);
    t.SetCType(TPosition::GM, CubeFormat::ND, F32);
    t.SetBiasType(TPosition::GM, CubeFormat::ND, F32);
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, ka, kb);
    t.SetBias(bias);
    t.SetBufferSpace(-1, -1, -1);
    return t.GetTiling(dst);
}
}  // namespace

ge::graphStatus ElmanCellStepTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto hShape = context->GetInputShape(1)->GetStorageShape();
    auto wIhShape = context->GetInputShape(2)->GetStorageShape();
    auto wHoShape = context->GetInputShape(4)->GetStorageShape();

    uint32_t B = xShape.GetDim(0);
    uint32_t I = xShape.GetDim(1);
    uint32_t H = hShape.GetDim(1);
    uint32_t O = wHoShape.GetDim(0);
    if (hShape.GetDim(0) != B || wIhShape.GetDim(0) != H || wIhShape.GetDim(1) != I + H ||
        wHoShape.GetDim(1) != H) {
        return ge::GRAPH_FAILED;
    }

    ElmanCellStepTilingData td;
    td.set_batch(B);
    td.set_inputSize(I);
    td.set_hiddenSize(H);
    td.set_outputSize(O);
    // tanh stage: in/out double buffered + tanh scratch ~ 6 tiles
    td.set_actTile(static_cast<uint32_t>((ub - 8192) / 6 / sizeof(float)) / 64 * 64);

    if (MakeGemmTiling(plat, aic, B, H, I, I, I + H, true, td.gateXTiling) == -1) return ge::GRAPH_FAILED;
    if (MakeGemmTiling(plat, aic, B, H, H, H, I + H, false, td.gateHTiling) == -1) return ge::GRAPH_FAILED;
    if (MakeGemmTiling(plat, aic, B, O, H, H, H, true, td.projTiling) == -1) return ge::GRAPH_FAILED;

    context->SetBlockDim(aic);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    // pre-activation accumulator [B, H] in float
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(B) * H * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
