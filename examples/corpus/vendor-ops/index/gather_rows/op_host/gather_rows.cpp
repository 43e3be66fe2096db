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
 * \file gather_rows.cpp
 * \brief Host side of gather_rows: tiling, shape inference and operator definition.
 */
#include "gather_rows_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GatherRowsTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    const uint32_t numRows = static_cast<uint32_t>(xShape.GetDim(0));
    const uint32_t rowLen = static_cast<uint32_t>(xShape.GetShapeSize() / numRows);
    const uint32_t numIndices = static_cast<uint32_t>(context->GetInputShape(1)->GetStorageShape().GetShapeSize());
    const uint32_t perCore = (numIndices + coreNum - 1) / coreNum;
    const uint32_t usedCores = (numIndices + perCore - 1) / perCore;

    tiling.set_numRows(numRows);
    tiling.set_rowLen(rowLen);
    tiling.set_usedCoreNum(usedCores);
    tiling.set_indicesPerCore(perCore);
    tiling.set_lastCoreIndices(numIndices - perCore * (usedCores - 1));
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
    const gert::Shape* idxShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    const size_t idxDims = idxShape->GetDimNum();
    const size_t xDims = xShape->GetDimNum();
    yShape->SetDimNum(idxDims + xDims - 1);
    for (size_t i = 0; i < idxDims; ++i) {
        yShape->SetDim(i, idxShape->GetDim(i));
    }
    for (size_t i = 1; i < xDims; ++i) {
        yShape->SetDim(idxDims + i - 1, xShape->GetDim(i));
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
class GatherRows : public OpDef {
public:
    explicit GatherRows(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GatherRows);
}  // namespace ops
