#include "causal_mha_block_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
namespace {
constexpr uint32_t Q_BLOCK = 64;
constexpr uint32_t ALIGN_ELEM = 16;

inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t AlignUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }

// Fills one single-core cube tiling; all operands live in GM, ND layout.
bool BuildMm(const platform_ascendc::PlatformAscendC &plat, matmul_tiling::DataType dt,
             int32_t m, int32_t n, int32_t k, int32_t orgKa, int32_t orgKb, int32_t orgN,
             bool transB, bool withBias, TCubeTiling &out)
{
    matmul_tiling::MatmulApiTiling mm(plat);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, transB);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mm.SetShape(m, n, k);
    // K pads on the scratch buffers are expressed via the org shape
    mm.SetOrgShape(m, orgN, orgKa, orgKb);
    mm.SetBias(withBias);
    mm.SetBufferSpace(-1, -1, -1);
    return mm.GetTiling(out) != -1;
}
}  // namespace

ge::graphStatus CausalMhaBlockTiling(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t B = static_cast<uint32_t>(xs.GetDim(0));
    const uint32_t T = static_cast<uint32_t>(xs.GetDim(1));
    const uint32_t C = static_cast<uint32_t>(xs.GetDim(2));
    const int64_t *nhAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const uint32_t nh = static_cast<uint32_t>(*nhAttr);
    if (nh == 0 || C % nh != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t hs = C / nh;

    auto dtype = context->GetInputDesc(0)->GetDataType();
    matmul_tiling::DataType mmType = (dtype == ge::DT_FLOAT16) ? matmul_tiling::DataType::DT_FLOAT16
                                                                : matmul_tiling::DataType::DT_FLOAT;
    const uint32_t elemSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;

    const uint32_t cores = plat.GetCoreNumAic();
    const uint32_t totalRows = B * T;
    uint32_t rowsPerCore = AlignUp(CeilDiv(totalRows, cores), ALIGN_ELEM);
    // every phase uses all cores; phase 3 may leave the last few idle
    uint32_t usedCores = cores;
    const uint32_t qBlock = T < Q_BLOCK ? AlignUp(T, ALIGN_ELEM) : Q_BLOCK;
    const uint32_t keyStride = AlignUp(T, ALIGN_ELEM);

    CausalMhaBlockTilingData td;
    td.set_batch(B);
    td.set_seqLen(T);
    td.set_embed(C);
    td.set_numHeads(nh);
    td.set_headDim(hs);
    td.set_rowsPerCore(rowsPerCore);
    td.set_qBlock(qBlock);
    td.set_keyStride(keyStride);
    td.set_usedCores(usedCores);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(hs)));

    bool ok = true;
    // per (batch, q|k|v, head): x_b[T, C] * W_slice[hs, C]^T -> [T, hs], written head-major
    ok = ok && BuildMm(plat, mmType, T, hs, C, C, C, hs, true, true, td.qkvMm);
    // scores of one query block against all keys of the head
    ok = ok && BuildMm(plat, mmType, qBlock, keyStride, hs, hs, hs, keyStride, true, false, td.scoreMm);
    // probabilities times values
    ok = ok && BuildMm(plat, mmType, qBlock, hs, keyStride, keyStride, keyStride, hs, false, false, td.ctxMm);
    // final projection over row slabs
    ok = ok && BuildMm(plat, mmType, rowsPerCore, C, C, C, C, C, true, true, td.projMm);
    if (!ok) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(usedCores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // user workspace: head-major q/k/v, head-merged context, per-core score + ctx scratch
    size_t qkvBytes = static_cast<size_t>(totalRows) * 3 * C * elemSize;
    size_t ctxBytes = static_cast<size_t>(totalRows) * C * elemSize;
    size_t scoreBytes = static_cast<size_t>(usedCores) * qBlock * (keyStride + hs) * elemSize;
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + qkvBytes + ctxBytes + scoreBytes;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
