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
 * \file attention_score_lite.cpp
 * \brief Host side of attention_score_lite: tiling, shape inference and operator definition.
 */
#include "attention_score_lite_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace {
constexpr uint32_t ROWS_PER_TASK = 64;
}  // namespace

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AttentionScoreLiteTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& qShape = context->GetInputShape(0)->GetStorageShape();
    const uint32_t batch = static_cast<uint32_t>(qShape.GetDim(0));
    const uint32_t seqLen = static_cast<uint32_t>(qShape.GetDim(1));
    const uint32_t headDim = static_cast<uint32_t>(qShape.GetDim(2));
    const uint32_t rowsPerTask = seqLen < ROWS_PER_TASK ? seqLen : ROWS_PER_TASK;

    // S = Q_blk x K^T : [rows, D] x [D, S]
    matmul_tiling::MatmulApiTiling qkTiling(ascendcPlatform);
    qkTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    qkTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16,
                      true);
    qkTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    qkTiling.SetShape(rowsPerTask, seqLen, headDim);
    qkTiling.SetOrgShape(rowsPerTask, seqLen, headDim);
    qkTiling.SetBias(false);
    qkTiling.SetBufferSpace(-1, -1, -1);
    // O_blk = P x V : [rows, S] x [S, D]
    matmul_tiling::MatmulApiTiling pvTiling(ascendcPlatform);
    pvTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    pvTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    pvTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    pvTiling.SetShape(rowsPerTask, headDim, seqLen);
    pvTiling.SetOrgShape(rowsPerTask, headDim, seqLen);
    pvTiling.SetBias(false);
    pvTiling.SetBufferSpace(-1, -1, -1);
    if (qkTiling.GetTiling(tiling.qkTiling) == -1 || pvTiling.GetTiling(tiling.pvTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    const float* scale = context->GetAttrs()->GetAttrPointer<float>(0);
    tiling.set_batch(batch);
    tiling.set_seqLen(seqLen);
    tiling.set_headDim(headDim);
    tiling.set_rowsPerTask(rowsPerTask);
    tiling.set_scaleValue(scale == nullptr ? 1.0f : *scale);

    const uint32_t cubeCores = ascendcPlatform.GetCoreNumAic();
    context->SetBlockDim(cubeCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // system workspace for the matmul server, then per vector core: fp32 scores + fp16 probabilities
    const size_t perVecCore = static_cast<size_t>(rowsPerTask) * seqLen * (sizeof(float) + sizeof(uint16_t));
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = ascendcPlatform.GetLibApiWorkSpaceSize() + perVecCore * cubeCores * 2;
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
class AttentionScoreLite : public OpDef {
public:
    explicit AttentionScoreLite(const char* name) : OpDef(name)
    {
        this->Input("query")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("key")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("value")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("attention_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale_value").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AttentionScoreLite);
}  // namespace ops
