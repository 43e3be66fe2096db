#include <cmath>
#include "nearest_neighbor_upsample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static void GetScales(const gert::RuntimeAttrs* attrs, float& sh, float& sw)
{
    const float* pH = attrs->GetAttrPointer<float>(0);
    const float* pW = attrs->GetAttrPointer<float>(1);
    sh = pH == nullptr ? 4.0f : *pH;
    sw = pW == nullptr ? 4.0f : *pW;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    NearestNeighborUpsampleCustomTilingData tiling;
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    if (xShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    float sh = 0.0f;
    float sw = 0.0f;
    GetScales(context->GetAttrs(), sh, sw);
    if (sh <= 0.0f || sw <= 0.0f) {
        return ge::GRAPH_FAILED;
    }

    uint32_t planes = static_cast<uint32_t>(xShape.GetDim(0) * xShape.GetDim(1));
    uint32_t inH = static_cast<uint32_t>(xShape.GetDim(2));
    uint32_t inW = static_cast<uint32_t>(xShape.GetDim(3));
    uint32_t outH = static_cast<uint32_t>(std::floor(static_cast<double>(inH) * sh));
    uint32_t outW = static_cast<uint32_t>(std::floor(static_cast<double>(inW) * sw));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t totalRows = planes * outH;
    uint32_t blockDim = totalRows < coreNum ? totalRows : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_planes(planes);
    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outH(outH);
    tiling.set_outW(outW);
    // 与 PyTorch 一致：给定 scale_factor 时直接用 1/scale 做坐标映射
    tiling.set_invScaleH(1.0f / sh);
    tiling.set_invScaleW(1.0f / sw);
    tiling.set_rowsPerCore(totalRows / blockDim);
    tiling.set_rowsRemain(totalRows % blockDim);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* pH = attrs->GetAttrPointer<float>(0);
    const float* pW = attrs->GetAttrPointer<float>(1);
    float sh = pH == nullptr ? 4.0f : *pH;
    float sw = pW == nullptr ? 4.0f : *pW;

    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    yShape->SetDim(2, static_cast<int64_t>(std::floor(static_cast<double>(xShape->GetDim(2)) * sh)));
    yShape->SetDim(3, static_cast<int64_t>(std::floor(static_cast<double>(xShape->GetDim(3)) * sw)));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class NearestNeighborUpsampleCustom : public OpDef {
public:
    explicit NearestNeighborUpsampleCustom(const char* name) : OpDef(name)
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
        this->Attr("scale_h").AttrType(OPTIONAL).Float(4.0f);
        this->Attr("scale_w").AttrType(OPTIONAL).Float(4.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(NearestNeighborUpsampleCustom);
}
