/**
 * @file broadcast_maximum_tiling.cpp
 * @brief Host tiling for BroadcastMaximum.
 *
 * The two inputs are right-aligned to the output rank, size-1 output dims are dropped and
 * adjacent dims that are laid out contiguously for both inputs are merged.  What remains is
 * an "outer" index space (rows) and one contiguous inner dim; every input either walks the
 * inner dim with unit stride or is constant along it.
 */
#include <vector>
#include <algorithm>
#include "broadcast_maximum_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TILE_BYTES = 16 * 1024;   // per buffer; 3 queues x 2 buffers + 2 scratch buffers
constexpr uint32_t BLOCK_BYTES = 32;

struct Axis {
    uint64_t size;
    uint64_t aStride;
    uint64_t bStride;
};

bool BuildAxes(const gert::Shape& a, const gert::Shape& b, std::vector<Axis>& axes)
{
    const size_t ra = a.GetDimNum();
    const size_t rb = b.GetDimNum();
    const size_t rank = std::max(ra, rb);
    std::vector<uint64_t> da(rank, 1), db(rank, 1), dout(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
        if (i >= rank - ra) {
            da[i] = static_cast<uint64_t>(a.GetDim(i - (rank - ra)));
        }
        if (i >= rank - rb) {
            db[i] = static_cast<uint64_t>(b.GetDim(i - (rank - rb)));
        }
        if (da[i] != db[i] && da[i] != 1 && db[i] != 1) {
            return false;
        }
        dout[i] = (da[i] == 1) ? db[i] : da[i];
    }
    // contiguous strides of each input, zeroed on broadcast axes
    std::vector<uint64_t> sa(rank, 0), sb(rank, 0);
    uint64_t accA = 1;
    uint64_t accB = 1;
    for (size_t k = rank; k > 0; --k) {
        const size_t i = k - 1;
        sa[i] = (da[i] == 1) ? 0 : accA;
        sb[i] = (db[i] == 1) ? 0 : accB;
        accA *= da[i];
        accB *= db[i];
    }
    axes.clear();
    for (size_t i = 0; i < rank; ++i) {
        if (dout[i] == 1) {
            continue;
        }
        if (!axes.empty()) {
            Axis& prev = axes.back();
            const bool mergeA = (prev.aStride == sa[i] * dout[i]);
            const bool mergeB = (prev.bStride == sb[i] * dout[i]);
            if (mergeA && mergeB) {
                prev.size *= dout[i];
                prev.aStride = sa[i];
                prev.bStride = sb[i];
                continue;
            }
        }
        axes.push_back({dout[i], sa[i], sb[i]});
    }
    if (axes.empty()) {
        axes.push_back({1, 1, 1});
    }
    return true;
}
} // namespace

ge::graphStatus BroadcastMaximumTilingFunc(gert::TilingContext* context)
{
    const gert::StorageShape* aShape = context->GetInputShape(0);
    const gert::StorageShape* bShape = context->GetInputShape(1);
    if (aShape == nullptr || bShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    std::vector<Axis> axes;
    if (!BuildAxes(aShape->GetStorageShape(), bShape->GetStorageShape(), axes)) {
        return ge::GRAPH_FAILED;
    }
    if (axes.size() > BMAX_MAX_DIMS) {
        return ge::GRAPH_FAILED;
    }

    uint32_t typeSize = 4;
    const auto dtype = context->GetInputDesc(0)->GetDataType();
    if (dtype == ge::DT_FLOAT16 || dtype == ge::DT_BF16) {
        typeSize = 2;
    }

    BroadcastMaximumTilingData tiling;
    const Axis& inner = axes.back();
    const uint64_t innerLen = inner.size;
    uint64_t rowNum = 1;
    uint64_t outerShape[BMAX_MAX_DIMS] = {0};
    uint64_t aOuter[BMAX_MAX_DIMS] = {0};
    uint64_t bOuter[BMAX_MAX_DIMS] = {0};
    const uint32_t outerDimNum = static_cast<uint32_t>(axes.size() - 1);
    for (uint32_t i = 0; i < outerDimNum; ++i) {
        outerShape[i] = axes[i].size;
        aOuter[i] = axes[i].aStride;
        bOuter[i] = axes[i].bStride;
        rowNum *= axes[i].size;
    }
    if (innerLen == 0) {
        rowNum = 0;
    }

    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    uint32_t tileLen = TILE_BYTES / typeSize;
    const uint64_t innerAligned = (innerLen + elemsPerBlock - 1) / elemsPerBlock * elemsPerBlock;
    if (innerAligned < tileLen) {
        tileLen = static_cast<uint32_t>(std::max<uint64_t>(innerAligned, elemsPerBlock));
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    // a row should carry enough work; small rows are grouped onto fewer cores
    const uint64_t minRowsPerCore = std::max<uint64_t>(1, 1024 / std::max<uint64_t>(innerLen, 1));
    uint64_t usedCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, (rowNum + minRowsPerCore - 1) / minRowsPerCore));
    if (rowNum == 0) {
        usedCores = 1;
    }

    tiling.set_rowNum(rowNum);
    tiling.set_rowsPerCore(rowNum / usedCores);
    tiling.set_rowsRemainder(rowNum % usedCores);
    tiling.set_outerShape(outerShape);
    tiling.set_aOuterStride(aOuter);
    tiling.set_bOuterStride(bOuter);
    tiling.set_outerDimNum(outerDimNum);
    tiling.set_innerLen(static_cast<uint32_t>(innerLen));
    tiling.set_aInnerContig(inner.aStride != 0 ? 1 : 0);
    tiling.set_bInnerContig(inner.bStride != 0 ? 1 : 0);
    tiling.set_tileLen(tileLen);
    tiling.set_reserved(0);

    context->SetBlockDim(static_cast<uint32_t>(usedCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling
