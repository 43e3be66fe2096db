#include "cubic_window_mean_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t PoolOut(uint32_t in, uint32_t k, uint32_t s, uint32_t p)
{
    return (in + 2 * p - k) / s + 1;
}

ge::graphStatus CubicWindowMeanTiling(gert::TilingContext *ctx)
{
    const gert::Shape &xs = ctx->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = ctx->GetAttrs();
    const uint32_t k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    const uint32_t p = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    if (s <= 0) {
        s = k;  // stride defaults to the window size
    }
    const uint32_t stride = static_cast<uint32_t>(s);
    if (k == 0 || p > 8 || 2 * p > k) {
        return ge::GRAPH_FAILED;
    }

    CubicWindowMeanTilingData td;
    td.set_planes(xs.GetDim(0) * xs.GetDim(1));
    td.set_inD(xs.GetDim(2));
    td.set_inH(xs.GetDim(3));
    td.set_inW(xs.GetDim(4));
    td.set_outD(PoolOut(xs.GetDim(2), k, stride, p));
    td.set_outH(PoolOut(xs.GetDim(3), k, stride, p));
    td.set_outW(PoolOut(xs.GetDim(4), k, stride, p));
    td.set_kernel(k);
    td.set_stride(stride);
    td.set_pad(p);
    // 8 zero floats in front (left padding slot), the row, then zeros covering right padding
    td.set_rowBufLen((8 + xs.GetDim(4) + k + 7 + 7) / 8 * 8);
    td.set_totalRows(td.get_planes() * td.get_outD() * td.get_outH());

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > td.get_totalRows()) cores = td.get_totalRows();
    ctx->SetBlockDim(cores ? cores : 1);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
