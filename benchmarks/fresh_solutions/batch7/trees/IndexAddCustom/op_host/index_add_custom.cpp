#include "index_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_ELEMS = 8;              // 32 bytes of float
constexpr uint32_t MIN_COLS_PER_CORE = 64;       // keep every burst >= 256 bytes
constexpr uint32_t IDX_CHUNK = 1024;
constexpr uint32_t BUFFER_NUM = 2;

static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *idxShape = context->GetInputShape(1);
    const auto &xs = xShape->GetStorageShape();

    uint32_t numRows = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t rowLen = 1;
    for (size_t i = 1; i < xs.GetDimNum(); ++i) {
        rowLen *= static_cast<uint32_t>(xs.GetDim(i));
    }
    uint32_t numIndices = static_cast<uint32_t>(idxShape->GetStorageShape().GetDim(0));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    // Each core owns a disjoint column slice of the output, so no two cores touch the
    // same address; repeated indices are folded with MTE3 atomic-add inside a core.
    uint32_t cols = AlignUp((rowLen + coreNum - 1) / coreNum, ALIGN_ELEMS);
    if (cols < MIN_COLS_PER_CORE) {
        cols = MIN_COLS_PER_CORE;
    }
    if (cols > rowLen) {
        cols = AlignUp(rowLen, ALIGN_ELEMS);
    }
    uint32_t usedCores = (rowLen + cols - 1) / cols;

    // UB: double-buffered row tile + index staging buffer
    uint64_t idxBytes = IDX_CHUNK * sizeof(int64_t);
    uint64_t avail = ubSize - idxBytes - 8 * 1024;   // leave some headroom
    uint32_t rowsPerBatch = static_cast<uint32_t>(avail / (BUFFER_NUM * cols * sizeof(float)));
    if (rowsPerBatch > 64) {
        rowsPerBatch = 64;
    }
    if (rowsPerBatch == 0) {
        rowsPerBatch = 1;
    }

    IndexAddCustomTilingData tiling;
    tiling.set_numRows(numRows);
    tiling.set_rowLen(rowLen);
    tiling.set_numIndices(numIndices);
    tiling.set_colsPerCore(cols);
    tiling.set_usedCores(usedCores);
    tiling.set_rowsPerBatch(rowsPerBatch);
    tiling.set_idxChunk(IDX_CHUNK);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class IndexAddCustom : public OpDef {
public:
    explicit IndexAddCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("values")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(IndexAddCustom);
} // namespace ops
