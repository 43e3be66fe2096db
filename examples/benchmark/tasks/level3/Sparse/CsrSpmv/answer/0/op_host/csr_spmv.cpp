/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#include "csr_spmv_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr size_t WORKSPACE_BYTES = 16 * 1024 * 1024;  // reserved for the runtime

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    CsrSpmvTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    const uint32_t cores = plat.GetCoreNumAiv();
    const uint32_t rows = static_cast<uint32_t>(ctx->GetInputShape(0)->GetStorageShape().GetShapeSize() - 1);
    const uint32_t cols = static_cast<uint32_t>(ctx->GetInputShape(3)->GetStorageShape().GetShapeSize());
    if (cols > 32768) {
        return ge::GRAPH_FAILED;  // x is staged in UB
    }
    td.set_numRows(rows);
    td.set_numCols(cols);
    td.set_rowsEach((rows + cores - 1) / cores);
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
    ctx->GetOutputShape(0)->SetDimNum(1);
    ctx->GetOutputShape(0)->SetDim(0, ctx->GetInputShape(0)->GetDim(0) - 1);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class CsrSpmv : public OpDef {
public:
    explicit CsrSpmv(const char* name) : OpDef(name)
    {
        this->Input("row_ptr")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("col_idx")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("values")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
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
        this->SetInferShape(ge::InferShapeFunc);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CsrSpmv);
}  // namespace ops
