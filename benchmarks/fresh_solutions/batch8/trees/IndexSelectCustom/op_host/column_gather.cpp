#include "column_gather_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLK_FLOATS = 8;
constexpr uint32_t IDX_CHUNK_CAP = 4096;
constexpr uint64_t RESERVED_UB = 4 * 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    // x is already presented as [outer, srcCols] by the binding (gathered axis last)
    const auto &xShape = context->GetInputShape(0)->GetStorageShape();
    const auto &iShape = context->GetInputShape(1)->GetStorageShape();
    size_t nd = xShape.GetDimNum();
    if (nd == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t srcCols = static_cast<uint32_t>(xShape.GetDim(nd - 1));
    uint32_t outer = 1;
    for (size_t i = 0; i + 1 < nd; ++i) {
        outer *= static_cast<uint32_t>(xShape.GetDim(i));
    }
    uint32_t numIdx = static_cast<uint32_t>(iShape.GetShapeSize());

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    if (cores > outer) {
        cores = outer;
    }
    if (cores == 0) {
        cores = 1;
    }

    uint32_t idxChunk = numIdx < IDX_CHUNK_CAP ? numIdx : IDX_CHUNK_CAP;
    idxChunk = AlignUp(idxChunk == 0 ? 1 : idxChunk, BLK_FLOATS);
    // UB use: 2 row buffers + offsets + 2 output buffers
    uint64_t rowBytes = static_cast<uint64_t>(AlignUp(srcCols, BLK_FLOATS)) * sizeof(float);
    uint64_t need = 2 * rowBytes + 3ULL * idxChunk * sizeof(float) + RESERVED_UB;
    uint32_t rowInUb = need <= ub ? 1 : 0;

    ColumnGatherTilingData td;
    td.set_outer(outer);
    td.set_srcCols(srcCols);
    td.set_numIdx(numIdx);
    td.set_idxChunk(idxChunk);
    td.set_rowsPerCore(outer / cores);
    td.set_rowsLeft(outer % cores);
    td.set_rowInUb(rowInUb);

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
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *idx = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(x->GetDimNum() - 1, idx->GetShapeSize());
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ColumnGatherCustom : public OpDef {
public:
    explicit ColumnGatherCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
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
OP_ADD(ColumnGatherCustom);
} // namespace ops
