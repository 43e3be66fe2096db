/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#include "bitwise_and_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr size_t WORKSPACE_BYTES = 16 * 1024 * 1024;  // reserved for the runtime

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    BitwiseAndTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t cores = plat.GetCoreNumAiv();
    const uint64_t total = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint64_t per = (total + cores - 1) / cores;
    per = (per + 7) / 8 * 8;
    const uint32_t used = static_cast<uint32_t>((total + per - 1) / per);
    td.set_bytesPerElem(4);
    td.set_elemsPerCore(per);
    td.set_elemsLastCore(total - per * (used - 1));
    td.set_chunkLanes(8192);
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
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class BitwiseAnd : public OpDef {
public:
    explicit BitwiseAnd(const char* name) : OpDef(name)
    {
        this->Input("x1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("x2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShapeFunc);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BitwiseAnd);
}  // namespace ops
