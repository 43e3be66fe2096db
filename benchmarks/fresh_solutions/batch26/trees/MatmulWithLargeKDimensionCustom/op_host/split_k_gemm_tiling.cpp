#include "split_k_gemm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MIN_K_PER_SPLIT = 1024;  // below this a split is not worth a partial matrix
constexpr uint32_t K_ALIGN = 64;
constexpr uint32_t REDUCE_TILE = 8192;      // floats per reduction tile
}

ge::graphStatus SplitKGemmTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &as = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &bs = context->GetInputShape(1)->GetStorageShape();
    if (as.GetDimNum() != 2 || bs.GetDimNum() != 2 || as.GetDim(1) != bs.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t m = static_cast<uint32_t>(as.GetDim(0));
    const uint32_t k = static_cast<uint32_t>(as.GetDim(1));
    const uint32_t n = static_cast<uint32_t>(bs.GetDim(1));
    const bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;

    uint32_t aiv = plat.GetCoreNumAiv();
    aiv = aiv == 0 ? 1 : aiv;
    // choose how many K partitions: as many vector cores as K allows
    uint32_t splits = (k + MIN_K_PER_SPLIT - 1) / MIN_K_PER_SPLIT;
    splits = splits > aiv ? aiv : splits;
    splits = splits == 0 ? 1 : splits;
    uint32_t kPer = (k + splits - 1) / splits;
    kPer = (kPer + K_ALIGN - 1) / K_ALIGN * K_ALIGN;
    splits = (k + kPer - 1) / kPer;

    SplitKGemmTilingData td;
    auto dt = isHalf ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
    matmul_tiling::MatmulApiTiling cube(plat);
    cube.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    cube.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    cube.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cube.SetOrgShape(m, n, k);
    cube.SetShape(m, n, kPer);
    cube.SetBias(false);
    cube.SetBufferSpace(-1, -1, -1);
    if (cube.GetTiling(td.cube) == -1) {
        return ge::GRAPH_FAILED;
    }

    // the reduction over partials is split across the same vector cores
    uint64_t outElems = static_cast<uint64_t>(m) * n;
    uint32_t redPer = static_cast<uint32_t>((outElems + splits - 1) / splits);
    redPer = (redPer + 15) / 16 * 16;

    td.set_m(m);
    td.set_n(n);
    td.set_k(k);
    td.set_kSplits(splits);
    td.set_kPerSplit(kPer);
    td.set_reducePerCore(redPer);
    td.set_reduceTile(REDUCE_TILE);

    context->SetTilingKey(isHalf ? 2 : 1);
    context->SetBlockDim((splits + 1) / 2);  // mixed 1:2 -> cube cores
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(splits) * outElems * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
