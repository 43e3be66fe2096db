#include "dense_bn_relu_conv_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_ELEMS = 8;           // 32 bytes of float
constexpr uint32_t MAX_OC_GROUP = 32;
constexpr uint64_t UB_BUDGET = 160 * 1024;    // leave head room for the pipe's own use

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}

ge::graphStatus DenseBnReluConvTilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& wShape = context->GetInputShape(3)->GetStorageShape();
    if (xShape.GetDimNum() != 4 || wShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const auto* attrs = context->GetAttrs();
    const int64_t* padAttr = attrs->GetAttrPointer<int64_t>(0);
    uint32_t pad = padAttr == nullptr ? 0 : static_cast<uint32_t>(*padAttr);

    uint32_t n = xShape.GetDim(0);
    uint32_t c = xShape.GetDim(1);
    uint32_t h = xShape.GetDim(2);
    uint32_t w = xShape.GetDim(3);
    uint32_t oc = wShape.GetDim(0);
    uint32_t kh = wShape.GetDim(2);
    uint32_t kw = wShape.GetDim(3);
    if (wShape.GetDim(1) != c || h + 2 * pad < kh || w + 2 * pad < kw || pad >= kw) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h + 2 * pad - kh + 1;
    uint32_t ow = w + 2 * pad - kw + 1;
    uint32_t inWAlign = AlignUp(w, ALIGN_ELEMS);
    uint32_t outWAlign = AlignUp(ow, ALIGN_ELEMS);

    // shrink the channel group until accumulators + row buffers fit in UB
    uint32_t group = oc < MAX_OC_GROUP ? oc : MAX_OC_GROUP;
    while (group > 1 &&
           (static_cast<uint64_t>(group) * outWAlign + 2ULL * inWAlign + 2ULL * outWAlign) * sizeof(float) > UB_BUDGET) {
        group >>= 1;
    }
    uint32_t groupNum = (oc + group - 1) / group;
    uint32_t tasks = n * groupNum * oh;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t blockDim = tasks < coreNum ? tasks : coreNum;
    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);

    DenseBnReluConvTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inC(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outC(oc);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_kH(kh);
    tiling.set_kW(kw);
    tiling.set_pad(pad);
    tiling.set_inWAlign(inWAlign);
    tiling.set_outWAlign(outWAlign);
    tiling.set_ocGroup(group);
    tiling.set_ocGroupNum(groupNum);
    tiling.set_totalTasks(tasks);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
