/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#include "max_pool2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr size_t WORKSPACE_BYTES = 16 * 1024 * 1024;  // reserved for the runtime

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    MaxPool2dTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t cores = plat.GetCoreNumAiv();
    const gert::Shape& s = ctx->GetInputShape(0)->GetStorageShape();
    const auto* k = ctx->GetAttrs()->GetListInt(0);
    const auto* st = ctx->GetAttrs()->GetListInt(1);
    const uint32_t h = static_cast<uint32_t>(s.GetDim(2));
    const uint32_t w = static_cast<uint32_t>(s.GetDim(3));
    const uint32_t kh = static_cast<uint32_t>(k->GetData()[0]);
    const uint32_t kw = static_cast<uint32_t>(k->GetData()[1]);
    const uint32_t sh = static_cast<uint32_t>(st->GetData()[0]);
    const uint32_t sw = static_cast<uint32_t>(st->GetData()[1]);
    td.set_planes(static_cast<uint32_t>(s.GetDim(0) * s.GetDim(1)));
    td.set_height(h);
    td.set_width(w);
    td.set_outHeight((h - kh) / sh + 1);
    td.set_outWidth((w - kw) / sw + 1);
    td.set_kernelH(kh);
    td.set_kernelW(kw);
    td.set_strideH(sh);
    td.set_strideW(sw);
    ctx->SetBlockDim(cores);
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
    const auto* k = ctx->GetAttrs()->GetListInt(0);
    const auto* st = ctx->GetAttrs()->GetListInt(1);
    gert::Shape* out = ctx->GetOutputShape(0);
    *out = *in;
    out->SetDim(2, (in->GetDim(2) - k->GetData()[0]) / st->GetData()[0] + 1);
    out->SetDim(3, (in->GetDim(3) - k->GetData()[1]) / st->GetData()[1] + 1);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MaxPool2d : public OpDef {
public:
    explicit MaxPool2d(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("kernel_size").AttrType(REQUIRED).ListInt();
        this->Attr("stride").AttrType(REQUIRED).ListInt();
        this->SetInferShape(ge::InferShapeFunc);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MaxPool2d);
}  // namespace ops
