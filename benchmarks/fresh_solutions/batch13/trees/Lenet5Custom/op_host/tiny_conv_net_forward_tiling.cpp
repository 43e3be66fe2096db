#include "tiny_conv_net_forward_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t Up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
constexpr uint32_t TILE_SAMPLES = 16;
constexpr uint32_t FC_ROWS = 8;
}

// inputs: 0 x, 1 conv1_w, 2 conv1_b, 3 conv2_w, 4 conv2_b, 5 fc1_w, 6 fc1_b, 7 fc2_w, 8 fc2_b, 9 fc3_w, 10 fc3_b
ge::graphStatus TinyConvNetTiling(gert::TilingContext *context)
{
    auto x = context->GetInputShape(0)->GetStorageShape();
    auto w1 = context->GetInputShape(1)->GetStorageShape();
    auto w2 = context->GetInputShape(3)->GetStorageShape();
    auto f1 = context->GetInputShape(5)->GetStorageShape();
    auto f2 = context->GetInputShape(7)->GetStorageShape();
    auto f3 = context->GetInputShape(9)->GetStorageShape();

    TinyConvNetTilingData td;
    uint32_t k = w1.GetDim(2);
    uint32_t h = x.GetDim(2), w = x.GetDim(3);
    uint32_t o1h = h - k + 1, o1w = w - k + 1;
    uint32_t q1h = o1h / 2, q1w = o1w / 2;
    uint32_t o2h = q1h - k + 1, o2w = q1w - k + 1;
    uint32_t q2h = o2h / 2, q2w = o2w / 2;
    uint32_t c1 = w1.GetDim(0), c2 = w2.GetDim(0);
    uint32_t feat = c2 * q2h * q2w;
    if (w2.GetDim(1) != c1 || f1.GetDim(1) != feat || f2.GetDim(1) != f1.GetDim(0) ||
        f3.GetDim(1) != f2.GetDim(0) || w1.GetDim(1) != x.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t batch = x.GetDim(0);
    uint32_t used = batch < cores ? batch : cores;
    used = used == 0 ? 1 : used;

    td.set_batch(batch);
    td.set_inC(x.GetDim(1));
    td.set_inH(h);
    td.set_inW(w);
    td.set_ksize(k);
    td.set_c1(c1);
    td.set_c2(c2);
    td.set_o1h(o1h); td.set_o1w(o1w);
    td.set_q1h(q1h); td.set_q1w(q1w);
    td.set_o2h(o2h); td.set_o2w(o2w);
    td.set_q2h(q2h); td.set_q2w(q2w);
    td.set_pitch1(Up(o1w, 16));
    td.set_pitch2(Up(o2w, 16));
    td.set_featLen(feat);
    td.set_hid1(f1.GetDim(0));
    td.set_hid2(f2.GetDim(0));
    td.set_classes(f3.GetDim(0));
    td.set_tileSamples(TILE_SAMPLES);
    td.set_fcRows(FC_ROWS);
    td.set_samplesPerCore(batch / used);
    td.set_samplesRem(batch % used);
    uint32_t scratch = Up(c1 * q1h * q1w, 8) + TILE_SAMPLES * Up(feat, 8);
    td.set_scratchPerCore(scratch);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    // per-core GM scratch: pooled conv1 planes + packed features of one sample tile
    size_t *wsp = context->GetWorkspaceSizes(1);
    wsp[0] = static_cast<size_t>(scratch) * used * sizeof(float) + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
