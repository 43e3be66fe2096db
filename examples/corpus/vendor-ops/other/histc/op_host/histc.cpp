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
 * \file histc.cpp
 * \brief Host side of histc: tiling, shape inference and operator definition.
 */
#include "histc_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    HistcTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const auto* attrs = context->GetAttrs();
    const int64_t bins = *attrs->GetAttrPointer<int64_t>(0);
    const float minValue = *attrs->GetAttrPointer<float>(1);
    const float maxValue = *attrs->GetAttrPointer<float>(2);
    if (bins <= 0 || !(maxValue > minValue)) {
        return ge::GRAPH_FAILED;  // the data-dependent min == max case is left to the framework
    }
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + 7) / 8 * 8;
    const uint32_t usedCores = static_cast<uint32_t>((total + perCore - 1) / perCore);
    const uint32_t histBytes = static_cast<uint32_t>((bins + 7) / 8 * 8 * sizeof(float));
    // x double buffered, bins (int32) and scaled (fp32): 4 tiles of 4 bytes per element
    uint32_t tileLength = static_cast<uint32_t>((ubSize - histBytes) / 4 / sizeof(float) / 8 * 8);
    tileLength = tileLength > 4096 ? 4096 : tileLength;  // keep the scalar loop per tile short

    tiling.set_bins(static_cast<uint32_t>(bins));
    tiling.set_usedCoreNum(usedCores);
    tiling.set_perCoreLength(static_cast<uint32_t>(perCore));
    tiling.set_lastCoreLength(static_cast<uint32_t>(total - perCore * (usedCores - 1)));
    tiling.set_tileLength(tileLength);
    tiling.set_minValue(minValue);
    tiling.set_maxValue(maxValue);
    tiling.set_binScale(static_cast<float>(bins) / (maxValue - minValue));
    // SyncAll in the kernel: launch exactly the cores that got data
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
    const int64_t* bins = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(1);
    yShape->SetDim(0, bins == nullptr ? 100 : *bins);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Histc : public OpDef {
public:
    explicit Histc(const char* name) : OpDef(name)
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
        this->Attr("bins").AttrType(OPTIONAL).Int(100);
        this->Attr("min").AttrType(OPTIONAL).Float(0.0);
        this->Attr("max").AttrType(OPTIONAL).Float(0.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Histc);
}  // namespace ops
