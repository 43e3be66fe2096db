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
 * \file depthwise_conv1d.cpp
 * \brief Host side of depthwise_conv1d: tiling, shape inference and operator definition.
 */
#include "depthwise_conv1d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    DepthwiseConv1dTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();       // [N, C, L]
    const gert::Shape& wShape = context->GetInputShape(1)->GetStorageShape();       // [C, 1, K]
    const uint32_t batch = static_cast<uint32_t>(xShape.GetDim(0));
    const uint32_t channels = static_cast<uint32_t>(xShape.GetDim(1));
    const uint32_t inLen = static_cast<uint32_t>(xShape.GetDim(2));
    const uint32_t kernelSize = static_cast<uint32_t>(wShape.GetDim(wShape.GetDimNum() - 1));
    const int64_t* dilationAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const uint32_t dilation = dilationAttr == nullptr ? 1 : static_cast<uint32_t>(*dilationAttr);
    const uint32_t span = dilation * (kernelSize - 1) + 1;
    if (span > inLen) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t outLen = inLen - span + 1;
    const uint32_t totalRows = batch * channels;
    const uint32_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    const uint32_t usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;
    // tap and output queues, double buffered
    uint32_t tileLen = static_cast<uint32_t>(ubSize / 4 / sizeof(float) / 8 * 8);
    tileLen = tileLen > outLen ? (outLen + 7) / 8 * 8 : tileLen;

    tiling.set_totalRows(totalRows);
    tiling.set_channels(channels);
    tiling.set_inLen(inLen);
    tiling.set_outLen(outLen);
    tiling.set_kernelSize(kernelSize);
    tiling.set_dilation(dilation);
    tiling.set_usedCoreNum(usedCores);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tailCoreRows(totalRows - rowsPerCore * (usedCores - 1));
    tiling.set_tileLen(tileLen);

    const bool hasBias = context->GetOptionalInputShape(2) != nullptr;
    context->SetTilingKey(hasBias ? 1 : 0);
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
    const gert::Shape* wShape = context->GetInputShape(1);
    const int64_t* dilation = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const int64_t d = dilation == nullptr ? 1 : *dilation;
    const int64_t k = wShape->GetDim(wShape->GetDimNum() - 1);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    yShape->SetDim(2, xShape->GetDim(2) - d * (k - 1));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DepthwiseConv1d : public OpDef {
public:
    explicit DepthwiseConv1d(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(DepthwiseConv1d);
}  // namespace ops
