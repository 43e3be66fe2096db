#include "conv_pos_hard_swish_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus ConvPosHardSwishTilingFunc(gert::TilingContext* context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || xs.GetDim(1) != ws.GetDim(1) ||
        xs.GetDim(2) < ws.GetDim(2) || xs.GetDim(3) < ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0);
    uint32_t kh = ws.GetDim(2);
    uint32_t kw = ws.GetDim(3);
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;
    uint32_t lineLen = (ow + 7) / 8 * 8;

    // accumulator + output staging (double) + filters per channel, inside ~150 KB of UB
    uint32_t perChan = (3 * lineLen + cin * kh * kw) * sizeof(float);
    uint32_t chanTile = (150 * 1024) / perChan;
    if (chanTile == 0) {
        return ge::GRAPH_FAILED;
    }
    if (chanTile > cout) {
        chanTile = cout;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aiv = platform.GetCoreNumAiv();
    uint32_t rowsTotal = n * oh;
    uint32_t blocks = rowsTotal < aiv ? rowsTotal : aiv;
    if (blocks == 0) {
        blocks = 1;
    }

    ConvPosHardSwishTilingData tiling;
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_kh(kh);
    tiling.set_kw(kw);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_lineLen(lineLen);
    tiling.set_chanTile(chanTile);
    tiling.set_rowsTotal(rowsTotal);
    tiling.set_rowsPerCore(rowsTotal / blocks);
    tiling.set_rowsExtra(rowsTotal % blocks);

    context->SetBlockDim(blocks);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
