#include "conv_mish_batchnorm_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t kAlign = 8;
constexpr uint64_t kUbReserve = 8 * 1024;
constexpr uint32_t kMaxCol = 512;
constexpr uint32_t kNormChunk = 4096;

uint32_t Up8(uint32_t v) { return (v + kAlign - 1) / kAlign * kAlign; }
}  // namespace

ge::graphStatus ConvMishBatchNormTiling(gert::TilingContext *context)
{
    auto xDesc = context->GetInputShape(0);
    auto wDesc = context->GetInputShape(1);
    if (xDesc == nullptr || wDesc == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xDesc->GetStorageShape();
    const gert::Shape &ws = wDesc->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t co = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (kh > h || kw > w) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;

    float eps = 1e-5f;
    if (const gert::RuntimeAttrs *attrs = context->GetAttrs()) {
        if (const float *e = attrs->GetFloat(0)) {
            eps = *e;
        }
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;

    uint32_t coA = Up8(co);
    uint32_t tapStride = Up8(kh * kw);
    // fixed UB: weight slice, 5 per-channel vectors (bias, gamma, beta, scale, shift),
    // running stats (2*coA), partial stats from another core (2*coA),
    // per-tile reduction slots (2 * coA * 8)
    uint64_t fixed = (static_cast<uint64_t>(co) * tapStride + coA * 25ULL) * sizeof(float);
    if (fixed + kUbReserve >= ub) {
        return ge::GRAPH_FAILED;
    }
    uint64_t avail = ub - kUbReserve - fixed;
    // per column: acc (co) + 2 input rows + 2 output rows + 3 temporaries
    uint32_t col = static_cast<uint32_t>(avail / ((co + 7ULL) * sizeof(float)));
    col = col / kAlign * kAlign;
    if (col > kMaxCol) {
        col = kMaxCol;
    }
    if (col < kAlign) {
        return ge::GRAPH_FAILED;
    }
    if (col >= ow) {
        col = ow;
    }
    uint32_t colAlign = Up8(col);
    // normalisation pass reuses the accumulator area
    uint32_t normChunk = co * colAlign / 2;
    normChunk = normChunk / kAlign * kAlign;
    if (normChunk > kNormChunk) {
        normChunk = kNormChunk;
    }
    if (normChunk < kAlign) {
        normChunk = kAlign;
    }

    uint32_t rows = n * oh;
    uint32_t used = rows < cores ? rows : cores;
    used = used == 0 ? 1 : used;

    ConvMishBatchNormTilingData t;
    t.set_batch(n);
    t.set_cin(ci);
    t.set_height(h);
    t.set_width(w);
    t.set_cout(co);
    t.set_coutAlign(coA);
    t.set_kh(kh);
    t.set_kw(kw);
    t.set_tapStride(tapStride);
    t.set_oh(oh);
    t.set_ow(ow);
    t.set_colTile(col);
    t.set_colAlign(colAlign);
    t.set_rowsPerCore(rows / used);
    t.set_rowsTail(rows % used);
    t.set_usedCores(used);
    t.set_normChunk(normChunk);
    t.set_invCount(1.0f / static_cast<float>(static_cast<uint64_t>(n) * oh * ow));
    t.set_epsilon(eps);

    context->SetBlockDim(used);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());

    // user workspace: per-core partial sums [used][2 * coA]
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * 2 * coA * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
