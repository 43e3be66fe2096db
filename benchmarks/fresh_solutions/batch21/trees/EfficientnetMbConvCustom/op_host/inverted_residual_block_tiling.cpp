/*
 * Tiling for InvertedResidualBlock (expand 1x1 -> depthwise kxk -> project 1x1, folded BN).
 * Three stages separated by full-core barriers; intermediates live in the workspace:
 *   E: [N, Chid, H*W]   after expand + BN + ReLU6
 *   D: [N, Chid, Ho*Wo] after depthwise + BN + ReLU6
 */
#include "inverted_residual_block_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_RESERVE = 16 * 1024;

uint32_t FloorTo(uint64_t v, uint32_t a) { return static_cast<uint32_t>(v / a * a); }
}

ge::graphStatus InvertedResidualBlockTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    auto xs = context->GetInputShape(0)->GetStorageShape();    // [N, Cin, H, W]
    auto we = context->GetInputShape(1)->GetStorageShape();    // [Chid, Cin] (or [Chid, Cin, 1, 1])
    auto wd = context->GetInputShape(4)->GetStorageShape();    // [Chid, 1, k, k]
    auto wp = context->GetInputShape(7)->GetStorageShape();    // [Cout, Chid] (or [Cout, Chid, 1, 1])
    if (xs.GetDimNum() != 4 || wd.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t chid = we.GetDim(0), cout = wp.GetDim(0), k = wd.GetDim(2);
    if (we.GetDim(1) != cin || wp.GetDim(1) != chid || wd.GetDim(0) != chid || k != wd.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *strideAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t stride = strideAttr ? static_cast<uint32_t>(*strideAttr) : 1;
    uint32_t pad = (k - 1) / 2;
    if (pad > 8 || stride == 0) {
        return ge::GRAPH_FAILED;   // left padding is filled by the DMA engine (<= 32 bytes)
    }
    uint32_t oh = (h + 2 * pad - k) / stride + 1;
    uint32_t ow = (w + 2 * pad - k) / stride + 1;

    InvertedResidualBlockTilingData td;
    td.set_batch(n);
    td.set_cin(cin);
    td.set_chid(chid);
    td.set_cout(cout);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_ksize(k);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_rowAlign((w + 2 * 8 + 7) / 8 * 8);

    // stage 1 keeps Cin input rows of a pixel tile plus 2 accumulators resident
    uint64_t avail = ub - UB_RESERVE;
    uint32_t t1 = FloorTo(avail / (sizeof(float) * (2ULL * cin + 4)), 64);
    uint32_t hw = h * w;
    uint32_t hwAligned = (hw + 63) / 64 * 64;
    t1 = t1 == 0 ? 8 : t1;
    td.set_expandTile(t1 < hwAligned ? t1 : hwAligned);
    // stage 3 keeps Cout accumulators of a pixel tile plus double-buffered hidden rows
    uint32_t t3 = FloorTo(avail / (sizeof(float) * (cout + 6ULL)), 64);
    uint32_t ohw = oh * ow;
    uint32_t ohwAligned = (ohw + 63) / 64 * 64;
    t3 = t3 == 0 ? 8 : t3;
    td.set_projectTile(t3 < ohwAligned ? t3 : ohwAligned);
    td.set_useResidual((stride == 1 && cin == cout) ? 1 : 0);
    td.set_coreNum(cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() +
            static_cast<size_t>(n) * chid * (static_cast<size_t>(hw) + ohw) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
