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
 * \file concat_last_dim.cpp
 * \brief Host side of concat_last_dim: tiling, shape inference and operator definition.
 */
#include "concat_last_dim_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace {
constexpr uint32_t MAX_INPUTS = 8;
}  // namespace

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConcatLastDimTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t inputNum = static_cast<uint32_t>(context->GetComputeNodeInputNum());
    if (inputNum == 0 || inputNum > MAX_INPUTS) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols[MAX_INPUTS] = {0};
    uint32_t totalCols = 0;
    uint32_t rows = 0;
    for (uint32_t i = 0; i < inputNum; ++i) {
        const gert::Shape& s = context->GetDynamicInputShape(0, i)->GetStorageShape();
        cols[i] = static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1));
        rows = static_cast<uint32_t>(s.GetShapeSize() / cols[i]);
        totalCols += cols[i];
    }
    const uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    const uint32_t usedCores = (rows + rowsPerCore - 1) / rowsPerCore;
    tiling.set_inputNum(inputNum);
    tiling.set_rows(rows);
    tiling.set_totalCols(totalCols);
    tiling.set_usedCoreNum(usedCores);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tailCoreRows(rows - rowsPerCore * (usedCores - 1));
    tiling.set_bufferBytes(static_cast<uint32_t>(ubSize / 2 / 32 * 32));
    tiling.set_inputCols(cols);
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
    const gert::Shape* first = context->GetDynamicInputShape(0, 0);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *first;
    const size_t last = first->GetDimNum() - 1;
    int64_t total = 0;
    for (size_t i = 0; i < context->GetComputeNodeInputNum(); ++i) {
        total += context->GetDynamicInputShape(0, i)->GetDim(last);
    }
    yShape->SetDim(last, total);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ConcatLastDim : public OpDef {
public:
    explicit ConcatLastDim(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConcatLastDim);
}  // namespace ops
