#include "conv_standard_2d_square_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp8(uint32_t v) { return (v + 7U) / 8U * 8U; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard2dSquareInputSquareKernelCustomTilingData tiling;
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();   // [N, C, H, W]
    const gert::Shape& wShape = context->GetInputShape(1)->GetStorageShape();   // [OC, C, K, K]
    const auto* attrs = context->GetAttrs();
    const int64_t* strideAttr = attrs->GetAttrPointer<int64_t>(0);
    const int64_t* padAttr = attrs->GetAttrPointer<int64_t>(1);

    uint32_t n = static_cast<uint32_t>(xShape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xShape.GetDim(1));
    uint32_t h = static_cast<uint32_t>(xShape.GetDim(2));
    uint32_t w = static_cast<uint32_t>(xShape.GetDim(3));
    uint32_t oc = static_cast<uint32_t>(wShape.GetDim(0));
    uint32_t k = static_cast<uint32_t>(wShape.GetDim(2));
    uint32_t stride = strideAttr == nullptr ? 4U : static_cast<uint32_t>(*strideAttr);
    uint32_t pad = padAttr == nullptr ? 2U : static_cast<uint32_t>(*padAttr);
    if (stride == 0 || pad > 8) {
        return ge::GRAPH_FAILED;   // left padding is produced by DataCopyPad, max 32 bytes
    }
    uint32_t oh = (h + 2 * pad - k) / stride + 1;
    uint32_t ow = (w + 2 * pad - k) / stride + 1;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t totalRows = n * oh;
    if (coreNum > totalRows) {
        coreNum = totalRows;
    }
    if (coreNum == 0) {
        coreNum = 1;
    }

    tiling.set_batch(n);
    tiling.set_inC(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outC(oc);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_kSize(k);
    tiling.set_stride(stride);
    tiling.set_pad(pad);
    tiling.set_rowStride(AlignUp8(w + 2 * pad + 8));
    tiling.set_colLen(AlignUp8(ow));
    tiling.set_patchLen(c * k * k);
    tiling.set_patchLenAlign(AlignUp8(c * k * k));
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(totalRows / coreNum);
    tiling.set_rowsRemain(totalRows % coreNum);

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* wShape = context->GetInputShape(1);
    const auto* attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t k = wShape->GetDim(2);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(0));
    yShape->SetDim(2, (xShape->GetDim(2) + 2 * pad - k) / stride + 1);
    yShape->SetDim(3, (xShape->GetDim(3) + 2 * pad - k) / stride + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard2dSquareInputSquareKernelCustom : public OpDef {
public:
    explicit ConvStandard2dSquareInputSquareKernelCustom(const char* name) : OpDef(name)
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
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(4);
        this->Attr("padding").AttrType(OPTIONAL).Int(2);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvStandard2dSquareInputSquareKernelCustom);
}
