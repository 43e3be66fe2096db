/**
 * Host tiling of DeconvGeluGroupNorm.
 * The unit of work is one (image, group) pair: a core produces every channel of the group,
 * so the group statistics never leave the core and no cross-core reduction is needed.
 */
#include <vector>
#include "deconv_gelu_group_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
namespace {
constexpr uint32_t FP32_BLK = 8;
inline uint32_t Align8(uint32_t v) { return (v + FP32_BLK - 1) / FP32_BLK * FP32_BLK; }
}  // namespace

ge::graphStatus DeconvGeluGroupNormTiling(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xShape = context->GetInputShape(0)->GetStorageShape();   // N Cin H W
    const gert::Shape &wShape = context->GetInputShape(1)->GetStorageShape();   // Cin Cout k k
    if (xShape.GetDimNum() != 4 || wShape.GetDimNum() != 4 || xShape.GetDim(1) != wShape.GetDim(0) ||
        wShape.GetDim(2) != wShape.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    float eps = *attrs->GetAttrPointer<float>(3);

    DeconvGeluGroupNormTilingData t;
    uint32_t cin = xShape.GetDim(1);
    uint32_t h = xShape.GetDim(2);
    uint32_t w = xShape.GetDim(3);
    uint32_t cout = wShape.GetDim(1);
    uint32_t k = wShape.GetDim(2);
    if (stride == 0 || groups == 0 || cout % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    int64_t ho = static_cast<int64_t>(h - 1) * stride - 2 * pad + k;
    int64_t wo = static_cast<int64_t>(w - 1) * stride - 2 * pad + k;
    if (ho <= 0 || wo <= 0) {
        return ge::GRAPH_FAILED;
    }

    t.set_batch(xShape.GetDim(0));
    t.set_cin(cin);
    t.set_hin(h);
    t.set_win(w);
    t.set_cout(cout);
    t.set_kernel(k);
    t.set_stride(stride);
    t.set_pad(pad);
    t.set_hout(static_cast<uint32_t>(ho));
    t.set_wout(static_cast<uint32_t>(wo));
    uint32_t woAl = Align8(static_cast<uint32_t>(wo));
    t.set_woutAlign(woAl);
    t.set_lead(FP32_BLK);                       // element 0 of the row buffer is a guaranteed zero
    t.set_rowLen(Align8(FP32_BLK + w + FP32_BLK));
    t.set_tapStride(Align8(k * k));
    t.set_groups(groups);
    t.set_chPerGroup(cout / groups);
    t.set_normChunk(8192);
    t.set_eps(eps);

    std::vector<int64_t> dims = {static_cast<int64_t>(woAl)};
    ge::Shape erfShape(dims);
    uint32_t erfMax = 0;
    uint32_t erfMin = 0;
    AscendC::GetErfMaxMinTmpSize(erfShape, sizeof(float), false, erfMax, erfMin);
    t.set_erfTmpBytes(erfMax > 0 ? erfMax : woAl * sizeof(float) * 3);

    uint32_t units = t.get_batch() * groups;
    uint32_t cores = platform.GetCoreNumAiv();
    context->SetBlockDim(units < cores ? units : cores);

    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
