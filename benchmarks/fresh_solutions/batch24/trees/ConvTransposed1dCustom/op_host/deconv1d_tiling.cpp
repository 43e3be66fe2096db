/**
 * Host tiling for Deconv1d.
 *
 * Work split: every (batch, out_channel) output row is an independent unit; rows are
 * distributed evenly over the vector cores. Inside a row the output length is cut into
 * tiles of tileLen elements that fit in UB together with the fp32 accumulator.
 */
#include "deconv1d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t KEY_UNIT_STRIDE = 1;   // vectorised path, stride == 1
constexpr uint32_t KEY_GENERIC = 2;       // any stride, element loop
constexpr uint32_t DEFAULT_TILE = 2048;

enum AttrIdx { ATTR_STRIDE = 0, ATTR_PAD, ATTR_OUT_PAD, ATTR_GROUPS };

int64_t ReadIntAttr(const gert::RuntimeAttrs *attrs, size_t idx, int64_t dflt)
{
    if (attrs == nullptr) {
        return dflt;
    }
    const int64_t *p = attrs->GetInt(idx);
    return p == nullptr ? dflt : *p;
}
}  // namespace

ge::graphStatus Deconv1dTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, L]
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();   // [Cin, Cout/g, K]
    if (xs.GetDimNum() != 3 || ws.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    const auto *attrs = context->GetAttrs();
    int64_t stride = ReadIntAttr(attrs, ATTR_STRIDE, 1);
    int64_t pad = ReadIntAttr(attrs, ATTR_PAD, 0);
    int64_t outPad = ReadIntAttr(attrs, ATTR_OUT_PAD, 0);
    int64_t groups = ReadIntAttr(attrs, ATTR_GROUPS, 1);
    if (stride <= 0 || groups <= 0 || pad < 0 || outPad < 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t cin = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t lin = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t coutPerGroup = static_cast<uint32_t>(ws.GetDim(1));
    uint32_t k = static_cast<uint32_t>(ws.GetDim(2));
    uint32_t cout = coutPerGroup * static_cast<uint32_t>(groups);
    int64_t lout = (static_cast<int64_t>(lin) - 1) * stride - 2 * pad + k + outPad;
    if (lout <= 0 || cin % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t totalRows = n * cout;
    uint32_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;

    // keep the tile no longer than the output row (rounded to 64 elements)
    uint32_t tile = DEFAULT_TILE;
    uint32_t loutAligned = (static_cast<uint32_t>(lout) + 63) / 64 * 64;
    if (loutAligned < tile) {
        tile = loutAligned;
    }

    Deconv1dTilingData td;
    td.set_batch(n);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_lenIn(lin);
    td.set_lenOut(static_cast<uint32_t>(lout));
    td.set_kernel(k);
    td.set_stride(static_cast<uint32_t>(stride));
    td.set_pad(static_cast<uint32_t>(pad));
    td.set_groups(static_cast<uint32_t>(groups));
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1U : 0U);
    td.set_rowsPerCore(rowsPerCore);
    td.set_totalRows(totalRows);
    td.set_tileLen(tile);

    context->SetTilingKey(stride == 1 ? KEY_UNIT_STRIDE : KEY_GENERIC);
    context->SetBlockDim(usedCores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
