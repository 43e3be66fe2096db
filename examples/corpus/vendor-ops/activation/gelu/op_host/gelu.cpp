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
 * \file gelu.cpp
 * \brief Host side of gelu: tiling, shape inference and operator definition.
 */
#include "gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cstring>

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GeluTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    const uint32_t alignElems = 32 / typeSize;

    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + alignElems - 1) / alignElems * alignElems;
    const uint32_t usedCores = static_cast<uint32_t>((total + perCore - 1) / perCore);
    // in and out double buffered + one scratch tile = 5 tiles
    uint32_t tileLength = static_cast<uint32_t>(ubSize / 5 / typeSize / alignElems * alignElems);
    tileLength = tileLength > perCore ? static_cast<uint32_t>(perCore) : tileLength;

    tiling.set_usedCoreNum(usedCores);
    tiling.set_coreLength(static_cast<uint32_t>(perCore));
    tiling.set_lastCoreLength(static_cast<uint32_t>(total - perCore * (usedCores - 1)));
    tiling.set_tileLength(tileLength);

    const char* approximate = context->GetAttrs()->GetAttrPointer<char>(0);
    const bool useTanh = approximate == nullptr || std::strcmp(approximate, "tanh") == 0;
    context->SetTilingKey(useTanh ? 0 : 1);
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
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Gelu : public OpDef {
public:
    explicit Gelu(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("approximate").AttrType(OPTIONAL).String("tanh");

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Gelu);
}  // namespace ops
