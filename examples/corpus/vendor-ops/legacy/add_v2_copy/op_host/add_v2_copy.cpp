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
 * \file add_v2_copy.cpp
 * \brief Host side of add_v2_copy: tiling, shape inference and operator definition.
 */
#include "add_v2_copy_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;
// x1, x2 and y queues, double buffered, plus two fp32 scratch tiles for the half path
constexpr uint32_t UB_SLOTS_FP32 = 3 * BUFFER_NUM;
constexpr uint32_t UB_SLOTS_FP16 = 3 * BUFFER_NUM + 4;
}  // namespace

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AddV2CopyTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const uint32_t typeSize = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    const uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;

    // split whole 32-byte blocks over the cores: formerNum cores get one block more
    const uint64_t totalBlocks = (totalLength + elemsPerBlock - 1) / elemsPerBlock;
    const uint32_t usedCores = static_cast<uint32_t>(totalBlocks < coreNum ? totalBlocks : coreNum);
    const uint64_t baseBlocks = totalBlocks / usedCores;
    const uint32_t formerNum = static_cast<uint32_t>(totalBlocks % usedCores);
    uint32_t formerLength = static_cast<uint32_t>((baseBlocks + 1) * elemsPerBlock);
    uint32_t tailLength = static_cast<uint32_t>(baseBlocks * elemsPerBlock);
    if (formerNum == 0) {
        formerLength = tailLength;
    }
    // the last core holds the ragged end of the tensor
    const uint64_t covered = static_cast<uint64_t>(formerNum) * formerLength +
                             static_cast<uint64_t>(usedCores - formerNum) * tailLength;
    if (covered > totalLength) {
        tailLength -= static_cast<uint32_t>(covered - totalLength);
    }

    const uint32_t slots = (dtype == ge::DT_FLOAT16) ? UB_SLOTS_FP16 : UB_SLOTS_FP32;
    const uint32_t tileLength = static_cast<uint32_t>(ubSize / slots / BLOCK_BYTES * BLOCK_BYTES / typeSize);

    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(formerLength);
    tiling.set_tailLength(tailLength);
    tiling.set_tileLength(tileLength);
    tiling.set_alpha(alpha == nullptr ? 1.0f : *alpha);

    context->SetBlockDim(usedCores);
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 2 : 1);
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
class AddV2Copy : public OpDef {
public:
    explicit AddV2Copy(const char* name) : OpDef(name)
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
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AddV2Copy);
}  // namespace ops
