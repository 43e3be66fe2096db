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
 * \file top_k_last_dim.cpp
 * \brief Host side of top_k_last_dim: tiling, shape inference and operator definition.
 */
#include "top_k_last_dim_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace {
// sort buffers need about 40 bytes per padded element; keep rows well inside UB
constexpr uint32_t MAX_COLS = 4096;
}  // namespace

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TopKLastDimTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    const int64_t* kAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const bool* largest = context->GetAttrs()->GetAttrPointer<bool>(1);
    if (kAttr == nullptr || *kAttr <= 0 || *kAttr > cols || cols > MAX_COLS) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    const uint32_t usedCores = (rows + rowsPerCore - 1) / rowsPerCore;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_k(static_cast<uint32_t>(*kAttr));
    tiling.set_usedCoreNum(usedCores);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tailCoreRows(rows - rowsPerCore * (usedCores - 1));
    context->SetTilingKey((largest == nullptr || *largest) ? 1 : 2);
    context->SetBlockDim(usedCores);
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
    const int64_t* k = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const size_t last = xShape->GetDimNum() - 1;
    for (size_t out = 0; out < 2; ++out) {
        gert::Shape* shape = context->GetOutputShape(out);
        *shape = *xShape;
        shape->SetDim(last, *k);
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, ge::DT_INT32);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TopKLastDim : public OpDef {
public:
    explicit TopKLastDim(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("values")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("k").AttrType(REQUIRED).Int();
        this->Attr("largest").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(TopKLastDim);
}  // namespace ops
