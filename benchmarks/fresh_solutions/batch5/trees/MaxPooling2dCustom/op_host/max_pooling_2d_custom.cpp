#include "max_pooling_2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp8(uint32_t v) { return (v + 7) / 8 * 8; }

static inline int64_t PoolOutSize(int64_t in, int64_t k, int64_t s, int64_t p)
{
    // ceil_mode = False, dilation = 1
    return (in + 2 * p - k) / s + 1;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaxPooling2dCustomTilingData tiling;
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    if (xShape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t* pPtr = attrs->GetAttrPointer<int64_t>(2);
    int64_t p = pPtr == nullptr ? 0 : *pPtr;
    if (k <= 0 || s <= 0 || p < 0 || 2 * p > k) {
        return ge::GRAPH_FAILED;
    }

    uint32_t planes = static_cast<uint32_t>(xShape.GetDim(0) * xShape.GetDim(1));
    int64_t h = xShape.GetDim(2);
    int64_t w = xShape.GetDim(3);
    uint32_t oh = static_cast<uint32_t>(PoolOutSize(h, k, s, p));
    uint32_t ow = static_cast<uint32_t>(PoolOutSize(w, k, s, p));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t totalRows = planes * oh;
    uint32_t blockDim = totalRows < coreNum ? totalRows : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    tiling.set_planes(planes);
    tiling.set_inH(static_cast<uint32_t>(h));
    tiling.set_inW(static_cast<uint32_t>(w));
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_alignInW(AlignUp8(static_cast<uint32_t>(w)));
    tiling.set_alignOutW(AlignUp8(ow));
    tiling.set_kernelSize(static_cast<uint32_t>(k));
    tiling.set_stride(static_cast<uint32_t>(s));
    tiling.set_padding(static_cast<uint32_t>(p));
    tiling.set_rowsPerCore(totalRows / blockDim);
    tiling.set_rowsTail(totalRows % blockDim);

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
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    const int64_t* pPtr = attrs->GetAttrPointer<int64_t>(2);
    int64_t p = pPtr == nullptr ? 0 : *pPtr;

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
class MaxPooling2dCustom : public OpDef {
public:
    explicit MaxPooling2dCustom(const char* name) : OpDef(name)
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
        this->Attr("kernel_size").Int();
        this->Attr("stride").Int();
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MaxPooling2dCustom);
}
