#include "efficientnet_mb_conv_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    EfficientnetMbConvCustomTilingData tiling;

    // x: [N, C, H, W]   weight: [C, 1, K, K] (flattened view is fine)
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    if (xShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(xShape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xShape.GetDim(1));
    uint32_t h = static_cast<uint32_t>(xShape.GetDim(2));
    uint32_t w = static_cast<uint32_t>(xShape.GetDim(3));

    auto attrs = context->GetAttrs();
    uint32_t k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t s = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t p = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    if (k == 0 || s == 0 || p > 8) {
        // left padding is produced by DataCopyPad, which only pads inside one 32B block
        return ge::GRAPH_FAILED;
    }

    uint32_t oh = (h + 2 * p - k) / s + 1;
    uint32_t ow = (w + 2 * p - k) / s + 1;

    // the furthest element touched by the gather is (ow-1)*s + k-1 in padded coordinates
    uint32_t need = (ow - 1) * s + k;
    uint32_t rowLen = AlignUp(need > (w + p) ? need : (w + p), 8);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t totalPlanes = n * c;
    uint32_t blockDim = totalPlanes < coreNum ? totalPlanes : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }
    uint32_t perCore = (totalPlanes + blockDim - 1) / blockDim;
    blockDim = (totalPlanes + perCore - 1) / perCore;

    tiling.set_channels(c);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_kSize(k);
    tiling.set_stride(s);
    tiling.set_pad(p);
    tiling.set_rowLen(rowLen);
    tiling.set_outWAlign(AlignUp(ow, 8));
    tiling.set_totalPlanes(totalPlanes);
    tiling.set_planesPerCore(perCore);

    context->SetBlockDim(blockDim);
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
    gert::Shape* yShape = context->GetOutputShape(0);
    auto attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    yShape->SetDim(2, (xShape->GetDim(2) + 2 * p - k) / s + 1);
    yShape->SetDim(3, (xShape->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class EfficientnetMbConvCustom : public OpDef {
public:
    explicit EfficientnetMbConvCustom(const char* name) : OpDef(name)
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
        this->Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("shift")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("kernel_size").Int();
        this->Attr("stride").Int();
        this->Attr("padding").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(EfficientnetMbConvCustom);
}
