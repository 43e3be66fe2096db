// Tiling for Resize3dTrilinear: one unit of work is one output W-row (plane, od, oh).
#include "resize3d_trilinear_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static float SourceRatio(uint32_t in, uint32_t out, float scale, bool alignCorners)
{
    if (alignCorners) {
        return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
    }
    // PyTorch uses 1/scale_factor when the scale is given explicitly
    return scale > 0.0f ? 1.0f / scale : static_cast<float>(in) / static_cast<float>(out);
}

ge::graphStatus Resize3dTrilinearTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xs = context->GetInputShape(0);
    if (xs == nullptr || xs->GetStorageShape().GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &shape = xs->GetStorageShape();
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const gert::ContinuousVector *scaleVec = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    const bool *alignPtr = attrs->GetAttrPointer<bool>(1);
    bool alignCorners = (alignPtr != nullptr) && *alignPtr;

    float scales[3] = {2.0f, 2.0f, 2.0f};
    if (scaleVec != nullptr && scaleVec->GetSize() == 3) {
        const float *sv = reinterpret_cast<const float *>(scaleVec->GetData());
        for (int i = 0; i < 3; ++i) {
            scales[i] = sv[i];
        }
    }

    uint32_t planes = static_cast<uint32_t>(shape.GetDim(0) * shape.GetDim(1));
    uint32_t in[3] = {static_cast<uint32_t>(shape.GetDim(2)), static_cast<uint32_t>(shape.GetDim(3)),
                      static_cast<uint32_t>(shape.GetDim(4))};
    uint32_t out[3];
    for (int i = 0; i < 3; ++i) {
        out[i] = static_cast<uint32_t>(static_cast<float>(in[i]) * scales[i]);
        if (out[i] == 0) {
            return ge::GRAPH_FAILED;
        }
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint64_t totalRows = static_cast<uint64_t>(planes) * out[0] * out[1];
    uint32_t rowsPerCore = static_cast<uint32_t>((totalRows + cores - 1) / cores);
    uint32_t usedCores = static_cast<uint32_t>((totalRows + rowsPerCore - 1) / rowsPerCore);

    Resize3dTrilinearTilingData td;
    td.set_planes(planes);
    td.set_inD(in[0]);
    td.set_inH(in[1]);
    td.set_inW(in[2]);
    td.set_outD(out[0]);
    td.set_outH(out[1]);
    td.set_outW(out[2]);
    td.set_inWPad(RoundUp(in[2], 16));
    td.set_outWPad(RoundUp(out[2], 64));
    td.set_rowsPerCore(rowsPerCore);
    td.set_alignCorners(alignCorners ? 1 : 0);
    td.set_ratioD(SourceRatio(in[0], out[0], scales[0], alignCorners));
    td.set_ratioH(SourceRatio(in[1], out[1], scales[1], alignCorners));
    td.set_ratioW(SourceRatio(in[2], out[2], scales[2], alignCorners));

    context->SetBlockDim(usedCores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
