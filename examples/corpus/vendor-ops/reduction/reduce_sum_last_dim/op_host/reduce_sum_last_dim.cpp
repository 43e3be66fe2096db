/**
 * Copyright (c) 2026 Ascend-CoT curate authors.
 *
 * This example file belongs to the curate example corpus and is offered under the
 * CANN Open Software License Agreement Version 2.0 (the "License"). Use, copy or modify
 * it only as the License allows. The LICENSE file at the root of this example repository
 * says where the official text of the License is published.
 * The file is provided as is, without warranty of any kind, express or implied, including
 * fitness for a particular purpose.
 */

/*!
 * \file reduce_sum_last_dim.cpp
 * \brief Host side of reduce_sum_last_dim: tiling, shape inference and operator definition.
 */
#include "reduce_sum_last_dim_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace {
constexpr uint32_t SHORT_ROW_MAX = 64;     // one 256-byte repeat of fp32
constexpr uint32_t MAX_REPEAT = 255;
constexpr uint32_t CHUNK_MAX = 8192;
}  // namespace

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReduceSumLastDimTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const size_t dims = shape.GetDimNum();
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(dims - 1));
    const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);

    uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    const uint32_t usedCores = (rows + rowsPerCore - 1) / rowsPerCore;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_usedCoreNum(usedCores);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tailCoreRows(rows - rowsPerCore * (usedCores - 1));

    if (cols <= SHORT_ROW_MAX) {
        const uint32_t colsAligned = (cols + 7) / 8 * 8;
        uint32_t rowsPerTile = static_cast<uint32_t>(ubSize / 4 / (colsAligned * sizeof(float)));
        rowsPerTile = rowsPerTile > MAX_REPEAT ? MAX_REPEAT : rowsPerTile;
        tiling.set_rowsPerTile(rowsPerTile);
        tiling.set_chunkCols(0);
        context->SetTilingKey(1);
    } else {
        uint32_t chunk = static_cast<uint32_t>(ubSize / 6 / sizeof(float) / 64 * 64);
        chunk = chunk > CHUNK_MAX ? CHUNK_MAX : chunk;
        tiling.set_rowsPerTile(0);
        tiling.set_chunkCols(chunk);
        context->SetTilingKey(2);
    }
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    const size_t dims = xShape->GetDimNum();
    yShape->SetDimNum(dims - 1);
    for (size_t i = 0; i + 1 < dims; ++i) {
        yShape->SetDim(i, xShape->GetDim(i));
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ReduceSumLastDim : public OpDef {
public:
    explicit ReduceSumLastDim(const char* name) : OpDef(name)
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

OP_ADD(ReduceSumLastDim);
}  // namespace ops
