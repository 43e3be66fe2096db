/*
 * VolumeConv3d tiling.
 *
 * The kernel produces, per pass, a block of output planes out[n, co0:co0+coTile, o0, r0:r0+rowTile, :]
 * in fp32 UB accumulators laid out as [coTile][rowTile][pitch]. Units of work
 * (n, group, channel tile, o0, row tile) are dealt round-robin to the vector cores.
 */
#include "volume_conv3d_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t MAX_BURST = 4095;   // DMA block count limit
constexpr uint32_t CO_TILE_CAP = 32;

bool GetTriple(const gert::RuntimeAttrs *attrs, size_t idx, int64_t out[3])
{
    auto v = attrs->GetAttrPointer<gert::ContinuousVector>(idx);
    if (v == nullptr) {
        return false;
    }
    auto d = static_cast<const int64_t *>(v->GetData());
    if (v->GetSize() == 1) {
        out[0] = out[1] = out[2] = d[0];
    } else if (v->GetSize() == 3) {
        out[0] = d[0];
        out[1] = d[1];
        out[2] = d[2];
    } else {
        return false;
    }
    return true;
}
} // namespace

ge::graphStatus VolumeConv3dTilingFunc(gert::TilingContext *context)
{
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    int64_t st[3], pd[3], dl[3];
    if (!GetTriple(attrs, 0, st) || !GetTriple(attrs, 1, pd) || !GetTriple(attrs, 2, dl)) {
        return ge::GRAPH_FAILED;
    }
    int64_t groups = *attrs->GetAttrPointer<int64_t>(3);
    uint32_t cin = xs.GetDim(1), cout = ws.GetDim(0);
    if (groups < 1 || cin % groups != 0 || cout % groups != 0 || ws.GetDim(1) != cin / groups) {
        return ge::GRAPH_FAILED;
    }

    uint32_t elem = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    // innermost axis is walked contiguously: unit stride, and the zero border must fit DMA padding
    if (st[2] != 1 || pd[2] > (int64_t)(32 / elem)) {
        return ge::GRAPH_FAILED;
    }

    VolumeConv3dTilingData td;
    uint32_t inDim[3], outDim[3], ksz[3], stride[3], pad[3], dil[3];
    for (int a = 0; a < 3; ++a) {
        int64_t in = xs.GetDim(2 + a), k = ws.GetDim(2 + a);
        if (st[a] < 1 || pd[a] < 0 || dl[a] < 1) {
            return ge::GRAPH_FAILED;
        }
        int64_t o = (in + 2 * pd[a] - dl[a] * (k - 1) - 1) / st[a] + 1;
        if (o <= 0) {
            return ge::GRAPH_FAILED;
        }
        inDim[a] = (uint32_t)in;
        outDim[a] = (uint32_t)o;
        ksz[a] = (uint32_t)k;
        stride[a] = (uint32_t)st[a];
        pad[a] = (uint32_t)pd[a];
        dil[a] = (uint32_t)dl[a];
    }
    td.set_inDim(inDim);
    td.set_outDim(outDim);
    td.set_ksz(ksz);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_dil(dil);

    uint32_t pitch = (outDim[2] + 15) / 16 * 16;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint64_t avail = ub - 8 * 1024;

    // per line: tap queue (2 x T) + fp32 widened tap + output queue (2 x T) + fp32 epilogue
    uint64_t lineFixed = (uint64_t)pitch * (4 * elem + 4 + 4);
    uint64_t lineAcc = (uint64_t)pitch * 4;
    uint32_t coutPerGroup = cout / (uint32_t)groups;
    uint32_t minCo = coutPerGroup < 4 ? coutPerGroup : 4;
    uint64_t rows = avail / (lineFixed + lineAcc * minCo);
    if (rows == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowTile = (uint32_t)(rows < outDim[1] ? rows : outDim[1]);
    rowTile = rowTile < MAX_BURST ? rowTile : MAX_BURST;
    uint64_t coFit = (avail - lineFixed * rowTile) / (lineAcc * rowTile);
    uint32_t coTile = (uint32_t)(coFit < coutPerGroup ? coFit : coutPerGroup);
    coTile = coTile < CO_TILE_CAP ? coTile : CO_TILE_CAP;
    uint32_t rowTiles = (outDim[1] + rowTile - 1) / rowTile;
    uint32_t coTilesPerGroup = (coutPerGroup + coTile - 1) / coTile;
    uint64_t units = (uint64_t)xs.GetDim(0) * groups * coTilesPerGroup * outDim[0] * rowTiles;

    td.set_n(xs.GetDim(0));
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_cinPerGroup(cin / (uint32_t)groups);
    td.set_coutPerGroup(coutPerGroup);
    td.set_pitch(pitch);
    td.set_rowTile(rowTile);
    td.set_rowTiles(rowTiles);
    td.set_coTile(coTile);
    td.set_coTilesPerGroup(coTilesPerGroup);
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr);
    td.set_units((uint32_t)units);

    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(units < cores ? (uint32_t)units : cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
