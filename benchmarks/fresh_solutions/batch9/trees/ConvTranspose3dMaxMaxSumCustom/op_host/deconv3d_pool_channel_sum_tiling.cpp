#include "deconv3d_pool_channel_sum_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// UB bytes we allow the repacked weight slab to occupy
static constexpr uint32_t WEIGHT_UB_BUDGET = 64 * 1024;

ge::graphStatus Deconv3dPoolChannelSumTilingFunc(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();  // [N, Cin, D, H, W]
    const gert::Shape &ws = ctx->GetInputShape(1)->GetStorageShape();  // [Cin, Cout, K, K, K]
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t poolA = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    uint32_t poolB = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(3));

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1), k = ws.GetDim(2);

    auto deconvLen = [&](uint32_t in) -> int64_t {
        return static_cast<int64_t>(in - 1) * stride - 2 * static_cast<int64_t>(pad) + k;
    };
    int64_t cd = deconvLen(d), ch = deconvLen(h), cw = deconvLen(w);
    if (cd <= 0 || ch <= 0 || cw <= 0 || poolA == 0 || poolB == 0) {
        return ge::GRAPH_FAILED;
    }
    // both pools use stride == kernel, floor mode
    uint32_t od = static_cast<uint32_t>(cd / poolA / poolB);
    uint32_t oh = static_cast<uint32_t>(ch / poolA / poolB);
    uint32_t ow = static_cast<uint32_t>(cw / poolA / poolB);

    uint32_t perCi = k * cout * sizeof(float);
    uint32_t ciTile = WEIGHT_UB_BUDGET / perCi;
    ciTile = ciTile == 0 ? 1 : (ciTile > cin ? cin : ciTile);

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t rows = n * od * oh;  // one work item = one (n, d, h) row of the pooled output
    uint32_t used = rows < cores ? rows : cores;
    used = used == 0 ? 1 : used;

    Deconv3dPoolChannelSumTiling t;
    t.set_batch(n);
    t.set_cin(cin);
    t.set_cout(cout);
    t.set_inD(d);
    t.set_inH(h);
    t.set_inW(w);
    t.set_ksize(k);
    t.set_stride(stride);
    t.set_pad(pad);
    t.set_window(poolA * poolB);
    t.set_outD(od);
    t.set_outH(oh);
    t.set_outW(ow);
    t.set_ciTile(ciTile);
    t.set_rowsPerCore(rows / used);
    t.set_rowsTail(rows % used);
    t.set_cinPerCore((cin + used - 1) / used);

    ctx->SetBlockDim(used);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());

    // workspace: library scratch + repacked weights [K][K][Cin][K][Cout]
    size_t *wsSizes = ctx->GetWorkspaceSizes(1);
    wsSizes[0] = plat.GetLibApiWorkSpaceSize() +
                 static_cast<size_t>(cin) * cout * k * k * k * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
