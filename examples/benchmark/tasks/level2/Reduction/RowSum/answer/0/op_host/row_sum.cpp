/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#include "row_sum_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr size_t WORKSPACE_BYTES = 16 * 1024 * 1024;  // reserved for the runtime

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    RowSumTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t cores = plat.GetCoreNumAiv();
    const gert::Shape& s = ctx->GetInputShape(0)->GetStorageShape();
    const uint32_t width = static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1));
    const uint32_t height = static_cast<uint32_t>(s.GetShapeSize() / width);
    const uint32_t per = (height + cores - 1) / cores;
    const uint32_t used = (height + per - 1) / per;
    td.set_height(height);
    td.set_width(width);
    td.set_coreCount(used);
    td.set_linesPerCore(per);
    td.set_linesLastCore(height - per * (used - 1));
    td.set_batchLines(width <= 64 ? 128 : 0);
    td.set_segWidth(width <= 64 ? 0 : 4096);
    ctx->SetTilingKey(width <= 64 ? 1 : 2);
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
    const gert::Shape* in = ctx->GetInputShape(0);
    gert::Shape* out = ctx->GetOutputShape(0);
    out->SetDimNum(in->GetDimNum() - 1);
    for (size_t i = 0; i + 1 < in->GetDimNum(); ++i) {
        out->SetDim(i, in->GetDim(i));
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class RowSum : public OpDef {
public:
    explicit RowSum(const char* name) : OpDef(name)
    {
        this->Input("src")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("dst")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShapeFunc);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowSum);
}  // namespace ops
