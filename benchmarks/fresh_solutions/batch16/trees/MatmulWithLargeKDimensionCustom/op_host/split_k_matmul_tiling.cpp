/*
 * SplitKMatmul tiling.
 *
 * When K dwarfs M and N the output has too few blocks to keep every core busy,
 * so the reduction dimension is cut instead: core i computes
 *     P_i = A[:, Ki] * B[Ki, :]
 * into an fp32 workspace, then after a barrier all cores cooperatively sum the
 * partials (each over its own range of output elements) and write C.
 */
#include "split_k_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static constexpr uint32_t K_ALIGN = 256;        // keep slice starts cube/cacheline friendly
static constexpr uint32_t MIN_K_PER_SLICE = 1024;
static constexpr uint32_t REDUCE_TILE = 4096;   // fp32 elements per reduction pass

ge::graphStatus SplitKMatmulTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto aShape = context->GetInputShape(0)->GetStorageShape();
    auto bShape = context->GetInputShape(1)->GetStorageShape();
    const uint32_t m = aShape.GetDim(0);
    const uint32_t k = aShape.GetDim(1);
    const uint32_t n = bShape.GetDim(1);
    if (bShape.GetDim(0) != k || m == 0 || n == 0 || k == 0) {
        return ge::GRAPH_FAILED;
    }

    const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    const auto mmIn = dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    // choose the slice count: as many cores as there are, but no slice shorter than MIN_K_PER_SLICE
    const uint32_t cores = plat.GetCoreNumAic();
    uint32_t kPerSlice = (k + cores - 1) / cores;
    if (kPerSlice < MIN_K_PER_SLICE) {
        kPerSlice = MIN_K_PER_SLICE;
    }
    kPerSlice = (kPerSlice + K_ALIGN - 1) / K_ALIGN * K_ALIGN;
    uint32_t kSplit = (k + kPerSlice - 1) / kPerSlice;
    if (kSplit == 0) {
        kSplit = 1;
    }

    SplitKMatmulTilingData td;
    matmul_tiling::MatmulApiTiling mmTiler(plat);
    mmTiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmIn, false);
    mmTiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmIn, false);
    mmTiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiler.SetShape(m, n, kPerSlice);
    mmTiler.SetOrgShape(m, n, k);
    mmTiler.SetBias(false);
    mmTiler.SetBufferSpace(-1, -1, -1);
    if (mmTiler.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t outElems = m * n;
    uint32_t reducePerCore = (outElems + kSplit - 1) / kSplit;
    reducePerCore = (reducePerCore + 63) / 64 * 64;   // 256B aligned chunks in fp32

    td.set_m(m);
    td.set_n(n);
    td.set_k(k);
    td.set_kSplit(kSplit);
    td.set_kPerSlice(kPerSlice);
    td.set_reducePerCore(reducePerCore);
    td.set_reduceTile(REDUCE_TILE);

    context->SetBlockDim(kSplit);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(kSplit) * outElems * sizeof(float);
    return ge::GRAPH_SUCCESS;
}

} // namespace optiling
