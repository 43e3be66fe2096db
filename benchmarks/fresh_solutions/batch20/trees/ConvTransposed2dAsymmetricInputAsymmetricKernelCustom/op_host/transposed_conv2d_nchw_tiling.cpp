#include "transposed_conv2d_nchw_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <algorithm>

namespace optiling {
namespace {
inline uint32_t Align8(uint32_t v) { return (v + 7U) / 8U * 8U; }
inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1U) / b; }

// attribute order matches the OpDef: stride, padding, output_padding, dilation, groups
void ReadPair(const gert::RuntimeAttrs *attrs, size_t idx, int64_t dflt, int64_t &a, int64_t &b)
{
    a = dflt;
    b = dflt;
    auto *vec = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    if (vec == nullptr || vec->GetSize() == 0) {
        return;
    }
    const int64_t *d = reinterpret_cast<const int64_t *>(vec->GetData());
    a = d[0];
    b = vec->GetSize() > 1 ? d[1] : d[0];
}
}  // namespace

ge::graphStatus TransposedConv2dNchwTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t sh, sw, ph, pw, oph, opw, dh, dw;
    ReadPair(attrs, 0, 1, sh, sw);
    ReadPair(attrs, 1, 0, ph, pw);
    ReadPair(attrs, 2, 0, oph, opw);
    ReadPair(attrs, 3, 1, dh, dw);
    const int64_t *gPtr = attrs->GetAttrPointer<int64_t>(4);
    int64_t groups = (gPtr == nullptr || *gPtr <= 0) ? 1 : *gPtr;

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), hin = xs.GetDim(2), win = xs.GetDim(3);
    uint32_t coutPerGroup = ws.GetDim(1), kh = ws.GetDim(2), kw = ws.GetDim(3);
    uint32_t cout = coutPerGroup * static_cast<uint32_t>(groups);
    int64_t hout = (hin - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1;
    int64_t wout = (win - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1;
    if (hout <= 0 || wout <= 0 || cin % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    // Width is handled in "phase-major" order: full (unpadded) output column f
    // lives at phase f % sw, slot f / sw.  Each kernel tap then adds a
    // contiguous run of the input row into a single phase.
    uint32_t maxShift = (kw - 1) * dw / sw;
    uint32_t needSlots = CeilDiv(static_cast<uint32_t>(wout + pw), static_cast<uint32_t>(sw));
    uint32_t wq = Align8(std::max(needSlots, win + maxShift));
    uint32_t shiftPad = Align8(maxShift);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t elem = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    // fixed UB: raw row x2, padded fp32 row, Kw shifted rows, index tables, output row x2 + fp32 staging
    uint64_t fixedBytes = 2ULL * Align8(win) * elem + (shiftPad + wq) * 4ULL + 1ULL * kw * wq * 4 +
                          (wq + Align8(wout)) * 4ULL + 2ULL * Align8(wout) * elem + Align8(wout) * 4ULL + 2048;
    // per output channel: accumulator (sw phases) + weight slab (raw x2 + fp32)
    uint64_t perOc = 1ULL * sw * wq * 4 + 1ULL * kh * kw * (2 * elem + 4) + 64;
    if (fixedBytes >= ub) {
        return ge::GRAPH_FAILED;
    }
    uint32_t ocBlock = static_cast<uint32_t>((ub - fixedBytes) / perOc);
    ocBlock = std::min<uint32_t>(ocBlock, 32);
    ocBlock = std::min(ocBlock, coutPerGroup);
    if (ocBlock == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t blocksPerGroup = CeilDiv(coutPerGroup, ocBlock);
    uint32_t units = n * static_cast<uint32_t>(hout) * static_cast<uint32_t>(groups) * blocksPerGroup;
    uint32_t cores = std::min(units, coreNum);

    TransposedConv2dNchwTilingData t;
    t.set_batch(n);
    t.set_cin(cin);
    t.set_hin(hin);
    t.set_win(win);
    t.set_cout(cout);
    t.set_hout(static_cast<uint32_t>(hout));
    t.set_wout(static_cast<uint32_t>(wout));
    t.set_kh(kh);
    t.set_kw(kw);
    t.set_strideH(sh);
    t.set_strideW(sw);
    t.set_padH(ph);
    t.set_padW(pw);
    t.set_dilH(dh);
    t.set_dilW(dw);
    t.set_groups(static_cast<uint32_t>(groups));
    t.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    t.set_phaseLen(wq);
    t.set_shiftPad(shiftPad);
    t.set_ocBlock(ocBlock);
    t.set_ocBlocksPerGroup(blocksPerGroup);
    t.set_unitsTotal(units);
    t.set_unitsPerCore(units / cores);
    t.set_unitsRemain(units % cores);

    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
