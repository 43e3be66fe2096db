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
 * \file mse_loss.cpp
 * \brief Host side of mse_loss: tiling, shape inference and operator definition.
 */
#include "mse_loss_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cstring>

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MseLossTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const char* reduction = context->GetAttrs()->GetAttrPointer<char>(0);
    uint32_t key = 3;
    if (reduction != nullptr && std::strcmp(reduction, "none") == 0) {
        key = 1;
    } else if (reduction != nullptr && std::strcmp(reduction, "sum") == 0) {
        key = 2;
    }
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + 7) / 8 * 8;
    const uint32_t usedCores = static_cast<uint32_t>((total + perCore - 1) / perCore);
    // predict, label, out double buffered plus acc and work tiles: 8 tiles
    uint32_t tileLength = static_cast<uint32_t>(ubSize / 8 / sizeof(float) / 64 * 64);
    tileLength = tileLength > perCore ? static_cast<uint32_t>((perCore + 63) / 64 * 64) : tileLength;

    tiling.set_totalLength(total);
    tiling.set_usedCoreNum(usedCores);
    tiling.set_perCoreLength(static_cast<uint32_t>(perCore));
    tiling.set_lastCoreLength(static_cast<uint32_t>(total - perCore * (usedCores - 1)));
    tiling.set_tileLength(tileLength);
    tiling.set_invTotal(1.0f / static_cast<float>(total));
    context->SetTilingKey(key);
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
    const char* reduction = context->GetAttrs()->GetAttrPointer<char>(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    if (reduction != nullptr && std::strcmp(reduction, "none") == 0) {
        *yShape = *context->GetInputShape(0);
    } else {
        yShape->SetDimNum(0);  // scalar
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
class MseLoss : public OpDef {
public:
    explicit MseLoss(const char* name) : OpDef(name)
    {
        this->Input("predict")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("label")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("reduction").AttrType(OPTIONAL).String("mean");

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MseLoss);
}  // namespace ops
