#include "bicubic_resize2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline float SourceStep(uint32_t in, uint32_t out, bool alignCorners)
{
    if (alignCorners) {
        return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
    }
    return static_cast<float>(in) / static_cast<float>(out);
}
}  // namespace

ge::graphStatus BicubicResize2dTilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const gert::ContinuousVector *size = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    const bool *ac = attrs->GetAttrPointer<bool>(1);
    if (size == nullptr || size->GetSize() != 2) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *hw = reinterpret_cast<const int64_t *>(size->GetData());
    if (hw[0] <= 0 || hw[1] <= 0) {
        return ge::GRAPH_FAILED;
    }
    bool alignCorners = (ac == nullptr) ? true : *ac;

    uint32_t planes = static_cast<uint32_t>(xs.GetDim(0) * xs.GetDim(1));
    uint32_t inH = xs.GetDim(2), inW = xs.GetDim(3);
    uint32_t outH = static_cast<uint32_t>(hw[0]), outW = static_cast<uint32_t>(hw[1]);
    uint32_t inWAlign = (inW + 15) / 16 * 16;
    uint32_t outWAlign = (outW + 15) / 16 * 16;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // 2 input rows (T), float row, 4 cached horizontal rows, gather tmp, out row float and T x2,
    // 4 weight rows + 4 offset rows
    uint64_t need = inWAlign * (2 * 4 + 4) + static_cast<uint64_t>(outWAlign) * 4 * (4 + 1 + 1 + 2 + 4 + 4);
    if (need + 8192 > ub) {
        return ge::GRAPH_FAILED;
    }

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (planes + cores - 1) / cores;
    uint32_t used = (planes + per - 1) / per;

    BicubicResize2dTilingData td;
    td.set_planes(planes);
    td.set_inH(inH);
    td.set_inW(inW);
    td.set_outH(outH);
    td.set_outW(outW);
    td.set_inWAlign(inWAlign);
    td.set_outWAlign(outWAlign);
    td.set_planesPerCore(per);
    td.set_alignCorners(alignCorners ? 1 : 0);
    td.set_scaleH(SourceStep(inH, outH, alignCorners));
    td.set_scaleW(SourceStep(inW, outW, alignCorners));

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
