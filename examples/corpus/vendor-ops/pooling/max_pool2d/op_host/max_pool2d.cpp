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
 * \file max_pool2d.cpp
 * \brief Host side of max_pool2d: tiling, shape inference and operator definition.
 */
#include "max_pool2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cstring>

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaxPool2dTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const auto* attrs = context->GetAttrs();
    const gert::TypedContinuousVector<int64_t>* ksize = attrs->GetListInt(0);
    const gert::TypedContinuousVector<int64_t>* strides = attrs->GetListInt(1);
    const char* format = attrs->GetAttrPointer<char>(2);
    if (ksize == nullptr || strides == nullptr || ksize->GetSize() != 2 || strides->GetSize() != 2) {
        return ge::GRAPH_FAILED;
    }
    const bool nhwc = format != nullptr && std::strcmp(format, "NHWC") == 0;
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
    const uint32_t batch = static_cast<uint32_t>(x.GetDim(0));
    const uint32_t channels = static_cast<uint32_t>(nhwc ? x.GetDim(3) : x.GetDim(1));
    const uint32_t inH = static_cast<uint32_t>(nhwc ? x.GetDim(1) : x.GetDim(2));
    const uint32_t inW = static_cast<uint32_t>(nhwc ? x.GetDim(2) : x.GetDim(3));
    const uint32_t kH = static_cast<uint32_t>(ksize->GetData()[0]);
    const uint32_t kW = static_cast<uint32_t>(ksize->GetData()[1]);
    const uint32_t sH = static_cast<uint32_t>(strides->GetData()[0]);
    const uint32_t sW = static_cast<uint32_t>(strides->GetData()[1]);

    tiling.set_batch(batch);
    tiling.set_channels(channels);
    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outH((inH - kH) / sH + 1);
    tiling.set_outW((inW - kW) / sW + 1);
    tiling.set_kernelH(kH);
    tiling.set_kernelW(kW);
    tiling.set_strideH(sH);
    tiling.set_strideW(sW);
    // NHWC: key 1 when a kernel row is one contiguous, block-aligned load
    const bool rowLoad = nhwc && sW == kW && channels % 8 == 0;
    context->SetTilingKey(rowLoad ? 1 : 0);
    context->SetBlockDim(ascendcPlatform.GetCoreNumAiv());
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
    const auto* attrs = context->GetAttrs();
    const gert::TypedContinuousVector<int64_t>* ksize = attrs->GetListInt(0);
    const gert::TypedContinuousVector<int64_t>* strides = attrs->GetListInt(1);
    const char* format = attrs->GetAttrPointer<char>(2);
    const bool nhwc = format != nullptr && std::strcmp(format, "NHWC") == 0;
    const size_t hAxis = nhwc ? 1 : 2;
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    for (size_t i = 0; i < 2; ++i) {
        const int64_t in = xShape->GetDim(hAxis + i);
        yShape->SetDim(hAxis + i, (in - ksize->GetData()[i]) / strides->GetData()[i] + 1);
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
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
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("ksize").AttrType(REQUIRED).ListInt();
        this->Attr("strides").AttrType(REQUIRED).ListInt();
        this->Attr("data_format").AttrType(OPTIONAL).String("NCHW");

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend950");
    }
};

OP_ADD(MaxPool2d);
}  // namespace ops
