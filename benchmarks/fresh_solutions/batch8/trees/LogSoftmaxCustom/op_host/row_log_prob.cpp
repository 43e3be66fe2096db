#include "row_log_prob_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FP32_PER_BLOCK = 8;
constexpr uint32_t FP32_PER_REPEAT = 64;
constexpr uint32_t CHUNK_CAP = 8192;
// UB buffers counted in chunks: in x2, out x2, running accumulator x1, and ~1 for scratch
constexpr uint32_t CHUNKS_IN_UB = 6;
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    RowLogProbTilingData td;
    const gert::StorageShape *xs = context->GetInputShape(0);
    const auto &shape = xs->GetStorageShape();
    size_t nd = shape.GetDimNum();
    if (nd == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(nd - 1));
    uint32_t rows = 1;
    for (size_t i = 0; i + 1 < nd; ++i) {
        rows *= static_cast<uint32_t>(shape.GetDim(i));
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    if (cores > rows) {
        cores = rows;
    }
    if (cores == 0) {
        cores = 1;
    }

    uint32_t chunk = static_cast<uint32_t>(ub / sizeof(float) / (CHUNKS_IN_UB + 1));
    chunk = chunk / FP32_PER_REPEAT * FP32_PER_REPEAT;
    chunk = chunk > CHUNK_CAP ? CHUNK_CAP : chunk;
    uint32_t colsAligned = (cols + FP32_PER_BLOCK - 1) / FP32_PER_BLOCK * FP32_PER_BLOCK;
    if (colsAligned < chunk) {
        chunk = colsAligned;
    }
    uint32_t repeats = (chunk + FP32_PER_REPEAT - 1) / FP32_PER_REPEAT;
    uint32_t reduceWork = (repeats + FP32_PER_BLOCK - 1) / FP32_PER_BLOCK * FP32_PER_BLOCK;
    if (reduceWork < FP32_PER_BLOCK) {
        reduceWork = FP32_PER_BLOCK;
    }

    td.set_rows(rows);
    td.set_cols(cols);
    td.set_rowsPerCore(rows / cores);
    td.set_bigCoreNum(rows % cores);
    td.set_chunk(chunk);
    td.set_reduceWork(reduceWork);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
class RowLogProbCustom : public OpDef {
public:
    explicit RowLogProbCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
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
OP_ADD(RowLogProbCustom);
} // namespace ops
