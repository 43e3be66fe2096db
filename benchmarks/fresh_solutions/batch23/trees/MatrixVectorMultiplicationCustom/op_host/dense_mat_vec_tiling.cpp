#include "dense_mat_vec_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ROW_GROUP = 8;
constexpr uint32_t CHUNK = 2048;   // multiple of 64, so every chunk is a whole number of repeats

ge::graphStatus DenseMatVecTilingFunc(gert::TilingContext* context)
{
    auto a = context->GetInputShape(0)->GetStorageShape();   // (M, K)
    auto v = context->GetInputShape(1)->GetStorageShape();   // (K, 1) or (K)
    uint32_t m = static_cast<uint32_t>(a.GetDim(0));
    uint64_t k = static_cast<uint64_t>(a.GetDim(1));
    if (static_cast<uint64_t>(v.GetShapeSize()) != k) {
        return ge::GRAPH_FAILED;
    }
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (m + cores - 1) / cores;
    uint32_t used = (m + perCore - 1) / perCore;

    DenseMatVecTilingData td;
    td.set_rows(m);
    td.set_cols(k);
    td.set_rowsPerCore(perCore);
    td.set_rowGroup(ROW_GROUP);
    td.set_chunk(CHUNK);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    context->SetBlockDim(used == 0 ? 1 : used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
