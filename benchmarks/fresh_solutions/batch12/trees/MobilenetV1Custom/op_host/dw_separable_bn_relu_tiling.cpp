// Tiling of DwSeparableBnRelu, the depthwise-separable block
//   depthwise KxK conv -> affine (folded BN) -> ReLU -> 1x1 conv -> affine (folded BN) -> ReLU.
// A work unit is (n, oh, column chunk); the depthwise result of a unit (all input channels) stays in
// UB and is consumed by the pointwise stage in blocks of output channels.
#include "dw_separable_bn_relu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t HEADROOM = 16 * 1024;
inline uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}

ge::graphStatus DwSeparableBnReluTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();      // (N, C, H, W)
    const gert::Shape& dw = context->GetInputShape(1)->GetStorageShape();     // (C, 1, K, K)
    const gert::Shape& pw = context->GetInputShape(4)->GetStorageShape();     // (O, C) or (O, C, 1, 1)
    if (x.GetDimNum() != 4 || dw.GetDimNum() != 4 || dw.GetDim(0) != x.GetDim(1) || dw.GetDim(1) != 1 ||
        pw.GetDim(1) != x.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    const uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    const uint32_t n = x.GetDim(0), c = x.GetDim(1), h = x.GetDim(2), w = x.GetDim(3);
    const uint32_t k = dw.GetDim(2), o = pw.GetDim(0);
    if (stride == 0 || h + 2 * pad < k || w + 2 * pad < k) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t oh = (h + 2 * pad - k) / stride + 1;
    const uint32_t ow = (w + 2 * pad - k) / stride + 1;

    const uint32_t sz = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t coreNum = plat.GetCoreNumAiv();

    // 1. column chunk: depthwise result for all channels must take at most ~40% of UB
    uint32_t owTile = ow;
    auto fixedBytes = [&](uint32_t t) {
        const uint64_t ta = Align(t, 16);
        return static_cast<uint64_t>(c) * ta * 4 + static_cast<uint64_t>(k) * k * ta * 4 + ta * (4 + sz) + HEADROOM;
    };
    while (owTile > 16 && fixedBytes(owTile) > ub * 2 / 5) {
        owTile = (owTile + 1) / 2;
    }
    const uint32_t ta = Align(owTile, 16);
    const uint64_t fixed = fixedBytes(owTile);
    if (fixed >= ub) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t rest = ub - fixed;

    // 2. depthwise staging: K input rows per channel + zero cell, plus per-channel params
    const uint32_t slab = Align(k * w + 1, 16);
    const uint64_t perC = static_cast<uint64_t>(slab) * sz + Align(k * k, 16) * (4 + sz) + 64;
    uint32_t cBlock = static_cast<uint32_t>((rest / 2) / perC);
    cBlock = cBlock > c ? c : cBlock;
    cBlock = cBlock > 1024 ? 1024 : cBlock;   // per-channel affine params are cached in scalar memory

    // 3. pointwise: accumulator, output staging (x2), weight row (fp32 + raw), affine params
    const uint64_t perO = static_cast<uint64_t>(ta) * (4 + 2 * sz) + static_cast<uint64_t>(Align(c, 16)) * (4 + sz) + 64;
    uint32_t oBlock = static_cast<uint32_t>((rest / 2) / perO);
    oBlock = oBlock > o ? o : oBlock;
    oBlock = oBlock > 4095 ? 4095 : oBlock;   // DMA block count limit
    if (cBlock == 0 || oBlock == 0) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t chunks = (ow + owTile - 1) / owTile;
    const uint32_t units = n * oh * chunks;
    const uint32_t used = units < coreNum ? units : coreNum;

    DwSeparableBnReluTilingData t;
    t.set_batch(n);
    t.set_inC(c);
    t.set_inH(h);
    t.set_inW(w);
    t.set_outC(o);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_ksize(k);
    t.set_stride(stride);
    t.set_pad(pad);
    t.set_owTile(owTile);
    t.set_owTileAlign(ta);
    t.set_owChunks(chunks);
    t.set_slabStride(slab);
    t.set_cBlock(cBlock);
    t.set_oBlock(oBlock);
    t.set_unitsPerCore(units / used);
    t.set_unitsRem(units % used);

    context->SetBlockDim(used);
    context->SetTilingKey(sz == 2 ? 1 : 0);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
