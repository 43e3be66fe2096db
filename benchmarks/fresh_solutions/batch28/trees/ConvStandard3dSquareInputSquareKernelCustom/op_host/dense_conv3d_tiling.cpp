#include "dense_conv3d_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t B32 = 8;               // fp32 elements per 32-byte block
constexpr uint64_t UB_SAFETY = 8 * 1024;
constexpr uint32_t COL_LIMIT = 1024;

inline uint32_t Ceil8(uint32_t v) { return (v + B32 - 1) / B32 * B32; }

bool ReadTriple(const gert::RuntimeAttrs *attrs, size_t idx, int64_t dflt, int64_t out[3])
{
    out[0] = out[1] = out[2] = dflt;
    if (attrs == nullptr) {
        return true;
    }
    const gert::TypedContinuousVector<int64_t> *v = attrs->GetListInt(idx);
    if (v == nullptr || v->GetSize() == 0) {
        return true;
    }
    const int64_t *data = v->GetData();
    if (v->GetSize() == 1) {
        out[0] = out[1] = out[2] = data[0];
    } else if (v->GetSize() == 3) {
        out[0] = data[0];
        out[1] = data[1];
        out[2] = data[2];
    } else {
        return false;
    }
    return true;
}

int64_t OutDim(int64_t in, int64_t k, int64_t s, int64_t p, int64_t dl)
{
    return (in + 2 * p - dl * (k - 1) - 1) / s + 1;
}
}  // namespace

ge::graphStatus DenseConv3dTiling(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0);
    auto wsd = context->GetInputShape(1);
    if (xs == nullptr || wsd == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &x = xs->GetStorageShape();
    const gert::Shape &w = wsd->GetStorageShape();
    if (x.GetDimNum() != 5 || w.GetDimNum() != 5 || x.GetDim(1) != w.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    int64_t st[3], pd[3], dl[3];
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    if (!ReadTriple(attrs, 0, 1, st) || !ReadTriple(attrs, 1, 0, pd) || !ReadTriple(attrs, 2, 1, dl)) {
        return ge::GRAPH_FAILED;
    }
    for (int i = 0; i < 3; ++i) {
        if (st[i] < 1 || dl[i] < 1 || pd[i] < 0) {
            return ge::GRAPH_FAILED;
        }
    }
    int64_t od = OutDim(x.GetDim(2), w.GetDim(2), st[0], pd[0], dl[0]);
    int64_t oh = OutDim(x.GetDim(3), w.GetDim(3), st[1], pd[1], dl[1]);
    int64_t ow = OutDim(x.GetDim(4), w.GetDim(4), st[2], pd[2], dl[2]);
    if (od <= 0 || oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t co = static_cast<uint32_t>(w.GetDim(0));
    uint32_t kw = static_cast<uint32_t>(w.GetDim(4));
    uint32_t taps = static_cast<uint32_t>(w.GetDim(2) * w.GetDim(3) * w.GetDim(4));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;

    uint64_t fixedBytes = (static_cast<uint64_t>(co) * Ceil8(taps) + Ceil8(co)) * sizeof(float);
    if (fixedBytes + UB_SAFETY >= ub) {
        return ge::GRAPH_FAILED;
    }
    uint64_t budget = ub - UB_SAFETY - fixedBytes;

    uint32_t col = Ceil8(static_cast<uint32_t>(ow));
    if (col > COL_LIMIT) {
        col = COL_LIMIT;
    }
    uint32_t span = 0;
    for (; col >= B32; col -= B32) {
        span = Ceil8(static_cast<uint32_t>((col - 1) * st[2] + dl[2] * (kw - 1) + 1));
        if (span < col) {
            span = col;
        }
        // acc + gathered row + 2 output rows + (offset, mask) per kw tap + 2 input spans
        uint64_t need = (static_cast<uint64_t>(co) * col + 3ULL * col + 2ULL * kw * col + 2ULL * span) *
                        sizeof(float);
        if (need <= budget) {
            break;
        }
    }
    if (col < B32) {
        return ge::GRAPH_FAILED;
    }

    uint32_t rows = static_cast<uint32_t>(x.GetDim(0) * od * oh);
    uint32_t blocks = rows < cores ? rows : cores;
    blocks = blocks == 0 ? 1 : blocks;

    DenseConv3dTilingData t;
    t.set_n(x.GetDim(0));
    t.set_ci(x.GetDim(1));
    t.set_d(x.GetDim(2));
    t.set_h(x.GetDim(3));
    t.set_w(x.GetDim(4));
    t.set_co(co);
    t.set_kd(w.GetDim(2));
    t.set_kh(w.GetDim(3));
    t.set_kw(kw);
    t.set_od(od);
    t.set_oh(oh);
    t.set_ow(ow);
    t.set_sd(st[0]);
    t.set_sh(st[1]);
    t.set_sw(st[2]);
    t.set_pd(pd[0]);
    t.set_ph(pd[1]);
    t.set_pw(pd[2]);
    t.set_dd(dl[0]);
    t.set_dh(dl[1]);
    t.set_dw(dl[2]);
    t.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    t.set_tapsAlign(Ceil8(taps));
    t.set_colTile(col);
    t.set_spanCap(span);
    t.set_rowsPerCore(rows / blocks);
    t.set_rowsTail(rows % blocks);

    context->SetBlockDim(blocks);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
