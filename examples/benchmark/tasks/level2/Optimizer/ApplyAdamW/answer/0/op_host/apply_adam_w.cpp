/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#include "apply_adam_w_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr size_t WORKSPACE_BYTES = 16 * 1024 * 1024;  // reserved for the runtime

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    ApplyAdamWTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t cores = plat.GetCoreNumAiv();
    const auto* a = ctx->GetAttrs();
    const float lr = *a->GetAttrPointer<float>(0);
    const float b1 = *a->GetAttrPointer<float>(1);
    const float b2 = *a->GetAttrPointer<float>(2);
    const int64_t step = *a->GetAttrPointer<int64_t>(5);
    const uint64_t total = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint64_t per = (total + cores - 1) / cores;
    per = (per + 7) / 8 * 8;
    const uint32_t used = static_cast<uint32_t>((total + per - 1) / per);
    td.set_totalLength(total);
    td.set_usedCoreNum(used);
    td.set_perCoreLength(static_cast<uint32_t>(per));
    td.set_lastCoreLength(static_cast<uint32_t>(total - per * (used - 1)));
    td.set_tileLength(1024);
    td.set_decayFactor(1.0f - lr * *a->GetAttrPointer<float>(4));
    td.set_beta1(b1);
    td.set_oneMinusBeta1(1.0f - b1);
    td.set_beta2(b2);
    td.set_oneMinusBeta2(1.0f - b2);
    td.set_invBiasCorr2(1.0f / (1.0f - std::pow(b2, static_cast<float>(step))));
    td.set_negStepSize(-lr / (1.0f - std::pow(b1, static_cast<float>(step))));
    td.set_eps(*a->GetAttrPointer<float>(3));
    ctx->SetTilingKey(*a->GetAttrPointer<bool>(6) ? 1 : 0);
    ctx->SetBlockDim(used);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    *ctx->GetWorkspaceSizes(1) = WORKSPACE_BYTES;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShapeFunc(gert::InferShapeContext* ctx)
{
    for (size_t i = 0; i < 3; ++i) {
        *ctx->GetOutputShape(i) = *ctx->GetInputShape(i);
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
        this->SetInferShape(ge::InferShapeFunc);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ApplyAdamW);
}  // namespace ops
