#include <cmath>
#include "upsample_affine_warp_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t KEY_FP32 = 0;
constexpr uint32_t KEY_FP16 = 1;
inline uint32_t Pad8(uint32_t v) { return (v + 7) / 8 * 8; }
}

ge::graphStatus UpsampleAffineWarpTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ts = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ts.GetDimNum() != 3 || ts.GetDim(0) != xs.GetDim(0) ||
        ts.GetDim(1) != 2 || ts.GetDim(2) != 3) {
        return ge::GRAPH_FAILED;
    }
    float scale = 2.0f;
    if (const float *s = context->GetAttrs()->GetAttrPointer<float>(0)) {
        scale = *s;
    }
    if (scale <= 0.0f) {
        return ge::GRAPH_FAILED;
    }
    UpsampleAffineWarpTilingData td;
    const uint32_t N = xs.GetDim(0), C = xs.GetDim(1), H = xs.GetDim(2), W = xs.GetDim(3);
    const uint32_t OH = static_cast<uint32_t>(std::floor(H * scale));
    const uint32_t OW = static_cast<uint32_t>(std::floor(W * scale));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // resident per plane: input plane + upsampled plane (fp32) + row buffers
    uint64_t need = ((uint64_t)H * Pad8(W) + (uint64_t)OH * Pad8(OW)) * 4 +
                    (uint64_t)Pad8(OW) * 4 * 24 + (uint64_t)Pad8(W) * 4 * 2;
    if (need + 8 * 1024 > ub) {
        return ge::GRAPH_FAILED;   // plane too large for the single-pass UB scheme
    }

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t gridRows = N * OH;
    uint32_t planes = N * C;
    td.set_batch(N); td.set_channels(C); td.set_inH(H); td.set_inW(W); td.set_inWPad(Pad8(W));
    td.set_outH(OH); td.set_outW(OW); td.set_outWPad(Pad8(OW));
    td.set_invScaleH(1.0f / scale); td.set_invScaleW(1.0f / scale);
    td.set_gridRowsPerCore((gridRows + cores - 1) / cores);
    td.set_planesPerCore((planes + cores - 1) / cores);

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? KEY_FP16 : KEY_FP32);
    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // workspace: per (n, out row) 4 byte offsets + 4 weights for every output column
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)gridRows * 8 * Pad8(OW) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
