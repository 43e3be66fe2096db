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
 * \file quantize_per_tensor.cpp
 * \brief Host side of quantize_per_tensor: tiling, shape inference and operator definition.
 */
#include "quantize_per_tensor_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    QuantizePerTensorTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    // per-core shares and tiles are multiples of 32 elements: the int8 output is then block aligned
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + 31) / 32 * 32;
    const uint32_t usedCores = static_cast<uint32_t>((total + perCore - 1) / perCore);
    const uint32_t bytesPerElem = 2 * typeSize + 2 * 1 + 4 + 2;
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / 32 * 32);
    tileLength = tileLength > perCore ? static_cast<uint32_t>(perCore) : tileLength;

    const float* scale = context->GetAttrs()->GetAttrPointer<float>(0);
    const float* offset = context->GetAttrs()->GetAttrPointer<float>(1);
    tiling.set_usedCoreNum(usedCores);
    tiling.set_perCoreLength(static_cast<uint32_t>(perCore));
    tiling.set_lastCoreLength(static_cast<uint32_t>(total - perCore * (usedCores - 1)));
    tiling.set_tileLength(tileLength);
    tiling.set_scale(*scale);
    tiling.set_offset(offset == nullptr ? 0.0f : *offset);
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
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_INT8);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class QuantizePerTensor : public OpDef {
public:
    explicit QuantizePerTensor(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT8, ge::DT_INT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(REQUIRED).Float();
        this->Attr("offset").AttrType(OPTIONAL).Float(0.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(QuantizePerTensor);
}  // namespace ops
