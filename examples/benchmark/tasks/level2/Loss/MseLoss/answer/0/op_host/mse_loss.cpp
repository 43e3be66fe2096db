/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#include "mse_loss_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cstring>

namespace optiling {
constexpr size_t WORKSPACE_BYTES = 16 * 1024 * 1024;  // reserved for the runtime

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    MseLossTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t cores = plat.GetCoreNumAiv();
    const uint64_t total = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const char* mode = ctx->GetAttrs()->GetAttrPointer<char>(0);
    uint64_t per = (total + cores - 1) / cores;
    per = (per + 7) / 8 * 8;
    const uint32_t used = static_cast<uint32_t>((total + per - 1) / per);
    td.set_totalLength(total);
    td.set_usedCoreNum(used);
    td.set_perCoreLength(static_cast<uint32_t>(per));
    td.set_lastCoreLength(static_cast<uint32_t>(total - per * (used - 1)));
    td.set_tileLength(4096);
    td.set_invTotal(1.0f / static_cast<float>(total));
    ctx->SetTilingKey(std::strcmp(mode, "none") == 0 ? 1 : (std::strcmp(mode, "sum") == 0 ? 2 : 3));
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
    const char* mode = ctx->GetAttrs()->GetAttrPointer<char>(0);
    if (std::strcmp(mode, "none") == 0) {
        *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    } else {
        ctx->GetOutputShape(0)->SetDimNum(0);
    }
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
        this->SetInferShape(ge::InferShapeFunc);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MseLoss);
}  // namespace ops
