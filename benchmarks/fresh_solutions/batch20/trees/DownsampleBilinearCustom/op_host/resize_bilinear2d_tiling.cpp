#include "resize_bilinear2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static float SourceStep(uint32_t in, uint32_t out, bool alignCorners)
{
    if (alignCorners) {
        return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
    }
    return static_cast<float>(in) / static_cast<float>(out);
}

ge::graphStatus ResizeBilinear2dTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ys = context->GetOutputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const bool *acPtr = attrs->GetAttrPointer<bool>(1);
    bool alignCorners = acPtr != nullptr && *acPtr;

    uint32_t planes = static_cast<uint32_t>(xs.GetDim(0) * xs.GetDim(1));
    uint32_t inH = xs.GetDim(2), inW = xs.GetDim(3);
    uint32_t outH = ys.GetDim(2), outW = ys.GetDim(3);
    if (outH == 0 || outW == 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t esz = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    // two input rows (double buffered), two fp32 rows, 3 fp32 column tables + 2 gathers + out
    uint64_t need = 4ULL * inW * esz + 2ULL * inW * 4 + 6ULL * outW * 4 + 2ULL * outW * esz + 1024;
    if (need > ub) {
        return ge::GRAPH_FAILED;  // a single image row must fit in UB
    }

    uint32_t rows = planes * outH;
    uint32_t cores = rows < coreNum ? rows : coreNum;
    if (cores == 0) {
        cores = 1;
    }

    ResizeBilinear2dTilingData t;
    t.set_planes(planes);
    t.set_inH(inH);
    t.set_inW(inW);
    t.set_outH(outH);
    t.set_outW(outW);
    t.set_scaleH(SourceStep(inH, outH, alignCorners));
    t.set_scaleW(SourceStep(inW, outW, alignCorners));
    t.set_alignCorners(alignCorners ? 1 : 0);
    t.set_rowsTotal(rows);
    t.set_rowsPerCore(rows / cores);
    t.set_rowsRemain(rows % cores);

    context->SetBlockDim(cores);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
