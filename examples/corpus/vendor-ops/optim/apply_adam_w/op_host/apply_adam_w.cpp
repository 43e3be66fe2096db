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
 * \file apply_adam_w.cpp
 * \brief Host side of apply_adam_w: tiling, shape inference and operator definition.
 */
#include "../op_kernel/apply_adam_w_tiling_data.h"
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ApplyAdamWTilingData* tiling = context->GetTilingData<ApplyAdamWTilingData>();
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const auto* attrs = context->GetAttrs();
    const float lr = *attrs->GetAttrPointer<float>(0);
    const float beta1 = *attrs->GetAttrPointer<float>(1);
    const float beta2 = *attrs->GetAttrPointer<float>(2);
    const float eps = *attrs->GetAttrPointer<float>(3);
    const float wd = *attrs->GetAttrPointer<float>(4);
    const int64_t step = *attrs->GetAttrPointer<int64_t>(5);
    const bool maximize = *attrs->GetAttrPointer<bool>(6);
    if (step < 1) {
        return ge::GRAPH_FAILED;
    }
    const float biasCorr1 = 1.0f - std::pow(beta1, static_cast<float>(step));
    const float biasCorr2 = 1.0f - std::pow(beta2, static_cast<float>(step));

    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint64_t perCore = (total + coreNum - 1) / coreNum;
    perCore = (perCore + 7) / 8 * 8;
    const uint32_t usedCores = static_cast<uint32_t>((total + perCore - 1) / perCore);
    // 4 inputs and 3 outputs double buffered + 1 scratch = 15 tiles of fp32
    uint32_t tileLength = static_cast<uint32_t>(ubSize / 15 / sizeof(float) / 8 * 8);
    tileLength = tileLength > perCore ? static_cast<uint32_t>(perCore) : tileLength;

    tiling->totalLength = total;
    tiling->usedCoreNum = usedCores;
    tiling->perCoreLength = static_cast<uint32_t>(perCore);
    tiling->lastCoreLength = static_cast<uint32_t>(total - perCore * (usedCores - 1));
    tiling->tileLength = tileLength;
    tiling->decayFactor = 1.0f - lr * wd;
    tiling->beta1 = beta1;
    tiling->oneMinusBeta1 = 1.0f - beta1;
    tiling->beta2 = beta2;
    tiling->oneMinusBeta2 = 1.0f - beta2;
    tiling->invBiasCorr2 = 1.0f / biasCorr2;
    tiling->negStepSize = -lr / biasCorr1;
    tiling->epsilon = eps;

    context->SetTilingKey(maximize ? 1 : 0);
    context->SetBlockDim(usedCores);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    for (size_t i = 0; i < 3; ++i) {
        *context->GetOutputShape(i) = *context->GetInputShape(i);
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    for (size_t i = 0; i < 3; ++i) {
        context->SetOutputDataType(i, ge::DT_FLOAT);
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ApplyAdamW : public OpDef {
public:
    explicit ApplyAdamW(const char* name) : OpDef(name)
    {
        this->Input("var")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("m")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("grad")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("var_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("m_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("v_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("lr").AttrType(REQUIRED).Float();
        this->Attr("beta1").AttrType(OPTIONAL).Float(0.9);
        this->Attr("beta2").AttrType(OPTIONAL).Float(0.999);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-8);
        this->Attr("weight_decay").AttrType(OPTIONAL).Float(0.01);
        this->Attr("step").AttrType(REQUIRED).Int();
        this->Attr("maximize").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ApplyAdamW);
}  // namespace ops
