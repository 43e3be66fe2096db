#include "antialias_bilinear_resize_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
namespace {
inline uint32_t Align16(uint32_t v) { return (v + 15) / 16 * 16; }
}

ge::graphStatus AaResizeTilingFunc(gert::TilingContext *context)
{
    AaResizeTiling td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const gert::ContinuousVector *size = attrs ? attrs->GetAttrPointer<gert::ContinuousVector>(0) : nullptr;
    if (size == nullptr || size->GetSize() != 2) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *hw = static_cast<const int64_t *>(size->GetData());
    if (hw[0] <= 0 || hw[1] <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t planes = xs.GetDim(0) * xs.GetDim(1);
    uint32_t inH = xs.GetDim(2), inW = xs.GetDim(3);
    uint32_t outH = static_cast<uint32_t>(hw[0]), outW = static_cast<uint32_t>(hw[1]);

    // half-pixel mapping (align_corners = false): scale = in / out; when shrinking the
    // triangle filter is stretched by the scale so every input pixel is covered
    float scaleH = static_cast<float>(inH) / outH;
    float scaleW = static_cast<float>(inW) / outW;
    float supH = scaleH >= 1.0f ? scaleH : 1.0f;
    float supW = scaleW >= 1.0f ? scaleW : 1.0f;
    uint32_t tapsH = static_cast<uint32_t>(std::ceil(supH)) * 2 + 1;
    uint32_t tapsW = static_cast<uint32_t>(std::ceil(supW)) * 2 + 1;

    uint32_t inPitch = Align16(inW);
    uint32_t outPitch = Align16(outW);
    uint64_t need = (2ULL * inPitch * 4)            // row queue (fp32 worst case, double buffered)
                  + inPitch * 4 * 2                  // fp32 staged row + vertical accumulator
                  + 2ULL * tapsW * outPitch * 4      // column offsets + column weights
                  + outPitch * 4 * 3                 // gather scratch, output accumulator, cast row
                  + Align16(tapsH) * 4 + 1024;
    if (need > ub) {
        return ge::GRAPH_FAILED;
    }

    uint32_t totalRows = planes * outH;
    uint32_t perCore = (totalRows + cores - 1) / cores;

    td.set_planes(planes);
    td.set_inH(inH);
    td.set_inW(inW);
    td.set_outH(outH);
    td.set_outW(outW);
    td.set_scaleH(scaleH);
    td.set_scaleW(scaleW);
    td.set_supportH(supH);
    td.set_supportW(supW);
    td.set_tapsH(tapsH);
    td.set_tapsW(tapsW);
    td.set_inWPitch(inPitch);
    td.set_outWPitch(outPitch);
    td.set_totalRows(totalRows);
    td.set_rowsPerCore(perCore);

    context->SetBlockDim((totalRows + perCore - 1) / perCore);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
