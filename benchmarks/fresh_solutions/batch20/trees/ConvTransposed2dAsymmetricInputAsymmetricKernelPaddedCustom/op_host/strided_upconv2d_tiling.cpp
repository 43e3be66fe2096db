#include "strided_upconv2d_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_KW = 16;   // taps staged at once, see kernel

uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

bool ReadPair(const gert::RuntimeAttrs *attrs, size_t idx, int64_t &a, int64_t &b)
{
    const gert::ContinuousVector *v = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    if (v == nullptr || v->GetSize() == 0) {
        return false;
    }
    const int64_t *d = static_cast<const int64_t *>(v->GetData());
    a = d[0];
    b = v->GetSize() > 1 ? d[1] : d[0];
    return true;
}
} // namespace

ge::graphStatus StridedUpconv2dTilingFunc(gert::TilingContext *context)
{
    const gert::Shape xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t sh = 1, sw = 1, ph = 0, pw = 0, oph = 0, opw = 0;
    if (!ReadPair(attrs, 0, sh, sw) || !ReadPair(attrs, 1, ph, pw) || !ReadPair(attrs, 2, oph, opw)) {
        return ge::GRAPH_FAILED;
    }
    const int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    if (sh < 1 || sw < 1 || ph < 0 || pw < 0 || oph >= sh || opw >= sw || groups < 1) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), hi = xs.GetDim(2), wi = xs.GetDim(3);
    const uint32_t kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (ws.GetDim(0) != ci || ci % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t coPerGroup = ws.GetDim(1);
    const uint32_t co = coPerGroup * groups;
    const int64_t ho = (int64_t)(hi - 1) * sh - 2 * ph + kh + oph;
    const int64_t wo = (int64_t)(wi - 1) * sw - 2 * pw + kw + opw;
    if (ho <= 0 || wo <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t bytes = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    if (((int64_t)kw - 1 - pw) / sw + 1 > (int64_t)(32 / bytes) || kw > MAX_KW) {
        return ge::GRAPH_FAILED;
    }

    const uint32_t laneLen = Align((uint32_t)((wo + sw - 1) / sw) + 1, 16);
    const uint32_t woAlign = Align((uint32_t)wo, 16);

    auto asc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubBytes = 0;
    asc.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
    // staged taps (x2 queue) + fp32 taps + phases + offsets + result row + output queue
    const uint64_t need = 2ULL * kw * laneLen * bytes + 4ULL * kw * laneLen + 4ULL * sw * laneLen +
                          4ULL * woAlign * 2 + 2ULL * woAlign * bytes;
    if (need > ubBytes - 4096) {
        return ge::GRAPH_FAILED;
    }

    const uint64_t rows = (uint64_t)n * co * ho;
    const uint32_t coreNum = asc.GetCoreNumAiv();
    const uint32_t blockDim = rows < coreNum ? (uint32_t)rows : coreNum;
    const uint32_t tailRows = (uint32_t)(rows / blockDim);
    const uint32_t formerNum = (uint32_t)(rows % blockDim);

    StridedUpconv2dTilingData td;
    td.set_n(n);
    td.set_ci(ci);
    td.set_hi(hi);
    td.set_wi(wi);
    td.set_co(co);
    td.set_ho((uint32_t)ho);
    td.set_wo((uint32_t)wo);
    td.set_kh(kh);
    td.set_kw(kw);
    td.set_sh((uint32_t)sh);
    td.set_sw((uint32_t)sw);
    td.set_ph((uint32_t)ph);
    td.set_pw((uint32_t)pw);
    td.set_ciPerGroup(ci / (uint32_t)groups);
    td.set_coPerGroup(coPerGroup);
    td.set_laneLen(laneLen);
    td.set_woAlign(woAlign);
    td.set_withBias(context->GetOptionalInputShape(2) == nullptr ? 0 : 1);
    td.set_formerNum(formerNum);
    td.set_formerRows(tailRows + 1);
    td.set_tailRows(tailRows);

    context->SetBlockDim(blockDim);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = asc.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
