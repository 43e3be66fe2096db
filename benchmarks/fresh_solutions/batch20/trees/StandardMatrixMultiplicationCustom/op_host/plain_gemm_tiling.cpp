// PlainGemm host tiling: C[M, N] = op(A) x op(B), op = optional transpose.
// The cube-unit tiling (single-core block sizes, L1/L0 splits) is delegated to the
// matmul tiling library; we only describe types, shapes and the core count.
#include "plain_gemm_tiling.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static bool ToMatmulType(ge::DataType dt, DataType &out)
{
    switch (dt) {
        case ge::DT_FLOAT:   out = DataType::DT_FLOAT;   return true;
        case ge::DT_FLOAT16: out = DataType::DT_FLOAT16; return true;
        case ge::DT_BF16:    out = DataType::DT_BF16;    return true;
        default:             return false;
    }
}

ge::graphStatus PlainGemmTilingFunc(gert::TilingContext *context)
{
    const gert::Shape aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape bShape = context->GetInputShape(1)->GetStorageShape();
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    const bool transA = *context->GetAttrs()->GetAttrPointer<bool>(0);
    const bool transB = *context->GetAttrs()->GetAttrPointer<bool>(1);

    const int32_t m = transA ? aShape.GetDim(1) : aShape.GetDim(0);
    const int32_t ka = transA ? aShape.GetDim(0) : aShape.GetDim(1);
    const int32_t kb = transB ? bShape.GetDim(1) : bShape.GetDim(0);
    const int32_t n = transB ? bShape.GetDim(0) : bShape.GetDim(1);
    if (ka != kb || m <= 0 || n <= 0 || ka <= 0) {
        return ge::GRAPH_FAILED;
    }

    DataType dt;
    if (!ToMatmulType(context->GetInputDesc(0)->GetDataType(), dt)) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t aicNum = plat.GetCoreNumAic();

    MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aicNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, dt, transA);
    mm.SetBType(TPosition::GM, CubeFormat::ND, dt, transB);
    // float16 / bf16 accumulate in fp32 inside L0C and are rounded on the way out
    mm.SetCType(TPosition::GM, CubeFormat::ND, dt);
    mm.SetShape(m, n, ka);
    mm.SetOrgShape(m, n, ka);
    mm.SetBias(false);
    mm.SetBufferSpace(-1, -1, -1);

    PlainGemmTilingData tiling;
    if (mm.GetTiling(tiling.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_transA(transA ? 1 : 0);
    tiling.set_transB(transB ? 1 : 0);

    // number of (M, N) blocks actually produced by the tiling
    const int32_t sm = tiling.mmTiling.get_singleCoreM();
    const int32_t sn = tiling.mmTiling.get_singleCoreN();
    uint32_t blocks = (uint32_t)(((m + sm - 1) / sm) * ((n + sn - 1) / sn));
    if (blocks > aicNum) {
        blocks = aicNum;
    }
    context->SetBlockDim(blocks);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
