// AxisGather tiling. Views self as [outer, srcAxis, inner] and index/out as [outer, dstAxis, inner].
#include "axis_gather_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint64_t ROW_UB_LIMIT = 96 * 1024;   // bytes allowed for one resident source row
static constexpr uint32_t CHUNK = 2048;

ge::graphStatus AxisGatherTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &is = context->GetInputShape(1)->GetStorageShape();
    const int64_t rank = xs.GetDimNum();
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    dim = dim < 0 ? dim + rank : dim;
    if (dim < 0 || dim >= rank || static_cast<int64_t>(is.GetDimNum()) != rank) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t i = 0; i < rank; ++i) {
        if (i == dim) {
            continue;
        }
        if (is.GetDim(i) != xs.GetDim(i)) {
            return ge::GRAPH_FAILED;   // index must match self away from `dim`
        }
        (i < dim ? outer : inner) *= static_cast<uint64_t>(xs.GetDim(i));
    }

    uint32_t esize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    uint32_t perBlock = 32 / esize;
    uint64_t srcAxis = xs.GetDim(dim);
    uint64_t srcAxisAlign = (srcAxis + perBlock - 1) / perBlock * perBlock;
    bool vec = (inner == 1) && (srcAxisAlign * esize <= ROW_UB_LIMIT);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    coreNum = coreNum > 0 ? coreNum : 1;
    uint32_t rowsPerCore = static_cast<uint32_t>((outer + coreNum - 1) / coreNum);
    rowsPerCore = rowsPerCore > 0 ? rowsPerCore : 1;

    AxisGatherTilingData td;
    td.set_outerNum(static_cast<uint32_t>(outer));
    td.set_srcAxis(static_cast<uint32_t>(srcAxis));
    td.set_innerNum(static_cast<uint32_t>(inner));
    td.set_dstAxis(static_cast<uint32_t>(is.GetDim(dim)));
    td.set_srcAxisAlign(static_cast<uint32_t>(srcAxisAlign));
    td.set_chunkLen(CHUNK);
    td.set_vectorPath(vec ? 1 : 0);
    td.set_rowsPerCore(rowsPerCore);

    context->SetBlockDim(static_cast<uint32_t>((outer + rowsPerCore - 1) / rowsPerCore));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
