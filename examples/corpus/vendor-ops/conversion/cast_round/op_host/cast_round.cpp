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
 * \file cast_round.cpp
 * \brief Host side of cast_round: tiling, shape inference and operator definition.
 */
#include "cast_round_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace {
// a tile of 256 elements covers whole 32-byte blocks for fp16, fp32 and int32
constexpr uint32_t TILE_QUANTUM = 256;
}  // namespace

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CastRoundTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const int64_t* mode = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t roundMode = (mode == nullptr) ? 0 : *mode;
    if (roundMode < 0 || roundMode > 3 || total % (static_cast<uint64_t>(coreNum) * TILE_QUANTUM) != 0) {
        return ge::GRAPH_FAILED;  // this kernel only serves evenly divisible shapes
    }
    const uint32_t blockLength = static_cast<uint32_t>(total / coreNum);
    // two queues x two buffers of (input + int32 output)
    uint32_t tileLength = static_cast<uint32_t>(ubSize / 2 / (4 + 4) / TILE_QUANTUM * TILE_QUANTUM);
    while (blockLength % tileLength != 0) {
        tileLength -= TILE_QUANTUM;
    }
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(tileLength);

    const bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    // key = dtype * 10 + rounding mode, matched by the template instantiations of the kernel
    context->SetTilingKey(static_cast<uint64_t>((isHalf ? 10 : 0) + roundMode));
    context->SetBlockDim(coreNum);
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
    context->SetOutputDataType(0, ge::DT_INT32);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class CastRound : public OpDef {
public:
    explicit CastRound(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("mode").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CastRound);
}  // namespace ops
