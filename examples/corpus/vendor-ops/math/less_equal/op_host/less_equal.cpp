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
 * \file less_equal.cpp
 * \brief Host side of less_equal: tiling, shape inference and operator definition.
 */
#include "../op_kernel/less_equal_tiling_data.h"
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace {
constexpr uint32_t CMP_REPEAT_BYTES = 256;
}  // namespace

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LessEqualTilingData* tiling = context->GetTilingData<LessEqualTilingData>();
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    const uint32_t typeSize = isHalf ? 2 : 4;
    // UB per element: two inputs (x2 buffers), one byte out (x2), three half scratch tiles, mask bits
    const uint32_t bytesPerElem = 2 * 2 * typeSize + 2 + 3 * 2 + 1;
    const uint32_t perRepeat = CMP_REPEAT_BYTES / typeSize;
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / perRepeat * perRepeat);

    uint32_t usedCores = coreNum;
    uint64_t perCore = (total + usedCores - 1) / usedCores;
    perCore = (perCore + perRepeat - 1) / perRepeat * perRepeat;
    usedCores = static_cast<uint32_t>((total + perCore - 1) / perCore);
    if (tileLength > perCore) {
        tileLength = static_cast<uint32_t>(perCore);
    }

    tiling->totalLength = total;
    tiling->usedCoreNum = usedCores;
    tiling->perCoreLength = static_cast<uint32_t>(perCore);
    tiling->lastCoreLength = static_cast<uint32_t>(total - perCore * (usedCores - 1));
    tiling->tileLength = tileLength;

    context->SetBlockDim(usedCores);
    context->SetTilingKey(isHalf ? 1 : 0);  // selects the schMode instantiation
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x1Shape = context->GetInputShape(0);
    const gert::Shape* x2Shape = context->GetInputShape(1);
    if (x1Shape->GetDimNum() != x2Shape->GetDimNum()) {
        return GRAPH_FAILED;  // broadcasting is done by the framework before this op
    }
    *context->GetOutputShape(0) = *x1Shape;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_BOOL);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class LessEqual : public OpDef {
public:
    explicit LessEqual(const char* name) : OpDef(name)
    {
        this->Input("x1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LessEqual);
}  // namespace ops
