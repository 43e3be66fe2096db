#include <cmath>
#include "resize_bilinear_half_pixel_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static inline uint32_t Pad8(uint32_t v) { return (v + 7) / 8 * 8; }

ge::graphStatus ResizeBilinearHalfPixelTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    if (in.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float scaleH = *attrs->GetAttrPointer<float>(0);
    const float scaleW = *attrs->GetAttrPointer<float>(1);
    if (scaleH <= 0.0f || scaleW <= 0.0f) {
        return ge::GRAPH_FAILED;
    }

    uint32_t planes = in.GetDim(0) * in.GetDim(1);
    uint32_t inH = in.GetDim(2);
    uint32_t inW = in.GetDim(3);
    uint32_t outH = static_cast<uint32_t>(std::floor(inH * static_cast<double>(scaleH)));
    uint32_t outW = static_cast<uint32_t>(std::floor(inW * static_cast<double>(scaleW)));
    if (outH == 0 || outW == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // UB usage (float32 worst case): two source rows x2 buffers, blended row, cast staging,
    // two gathered rows, weights, two offset tables, output x2
    uint64_t need = (4ULL * Pad8(inW) + 2ULL * Pad8(inW) + 8ULL * Pad8(outW)) * sizeof(float);
    if (need > ub) {
        return ge::GRAPH_FAILED;   // rows too wide for the single-row scheme
    }

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t rows = planes * outH;
    if (cores > rows) cores = rows;

    ResizeBilinearHalfPixelTilingData td;
    td.set_planes(planes);
    td.set_inH(inH);
    td.set_inW(inW);
    td.set_outH(outH);
    td.set_outW(outW);
    td.set_inWPad(Pad8(inW));
    td.set_outWPad(Pad8(outW));
    td.set_invScaleH(1.0f / scaleH);
    td.set_invScaleW(1.0f / scaleW);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsLeft(rows % cores);

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
