#include <algorithm>
#include "deconv2d_square_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr uint32_t MAX_OW_TILE = 1024;
constexpr uint32_t MAX_CO_BLOCK = 16;
}

ge::graphStatus Deconv2dSquareTiling(gert::TilingContext* ctx)
{
    const auto& xs = ctx->GetInputShape(0)->GetStorageShape();   // (N, Cin, H, W)
    const auto& ws = ctx->GetInputShape(1)->GetStorageShape();   // (Cin, Cout/groups, K, K)
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4 || ws.GetDim(2) != ws.GetDim(3)) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = ctx->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t outPad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(3));
    if (stride == 0 || groups == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t k = ws.GetDim(2);
    uint32_t coutG = ws.GetDim(1);
    uint32_t cout = coutG * groups;
    uint32_t cinG = cin / groups;
    int64_t oh = static_cast<int64_t>(h - 1) * stride - 2 * pad + k + outPad;
    int64_t ow = static_cast<int64_t>(w - 1) * stride - 2 * pad + k + outPad;
    if (oh <= 0 || ow <= 0 || cin % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t tSize = ctx->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    uint32_t owTile = std::min(AlignUp(static_cast<uint32_t>(ow), 16), MAX_OW_TILE);
    uint32_t coBlock = std::min(coutG, MAX_CO_BLOCK);
    uint32_t budget = static_cast<uint32_t>(ub) - 8 * 1024;
    uint32_t segMax = 0, wPitch = 0;
    // Shrink the channel block, then the column tile, until everything fits in UB.
    while (true) {
        segMax = AlignUp((owTile + k) / stride + 2, 16);
        wPitch = AlignUp(coBlock * k * k, 16);
        uint32_t need = coBlock * owTile * 4          // float accumulators
                      + k * owTile * 4                // K shifted input rows
                      + segMax * (tSize + 4)          // staged input row (T + float)
                      + cinG * wPitch * (tSize + 4)   // weight block (T + float)
                      + 2 * owTile * tSize;           // output queue
        if (need <= budget) {
            break;
        }
        if (coBlock > 1) {
            coBlock = (coBlock + 1) / 2;
        } else if (owTile > 64) {
            owTile = AlignUp(owTile / 2, 16);
        } else {
            return ge::GRAPH_FAILED;
        }
    }

    uint32_t cbPerGroup = CeilDiv(coutG, coBlock);
    uint32_t owTiles = CeilDiv(static_cast<uint32_t>(ow), owTile);
    // unit = ((n * groups + g) * cbPerGroup + cb) * OH * owTiles + oh * owTiles + t
    uint32_t units = n * groups * cbPerGroup * static_cast<uint32_t>(oh) * owTiles;
    uint32_t used = std::max(1u, std::min(units, cores));

    Deconv2dSquareTilingData td;
    td.set_batch(n);
    td.set_inC(cin);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outC(cout);
    td.set_outH(static_cast<uint32_t>(oh));
    td.set_outW(static_cast<uint32_t>(ow));
    td.set_kSize(k);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_groups(groups);
    td.set_hasBias(ctx->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    td.set_coBlock(coBlock);
    td.set_coBlocksPerGroup(cbPerGroup);
    td.set_owTile(owTile);
    td.set_owTiles(owTiles);
    td.set_segMax(segMax);
    td.set_wPitch(wPitch);
    td.set_totalUnits(units);
    td.set_unitsPerCore(units / used);
    td.set_unitsExtra(units % used);

    ctx->SetBlockDim(used);
    ctx->SetTilingKey(tSize == 2 ? 1 : 0);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    ctx->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
