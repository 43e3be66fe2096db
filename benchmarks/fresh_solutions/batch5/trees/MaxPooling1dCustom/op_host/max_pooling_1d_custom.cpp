#include "max_pooling_1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline int64_t PoolOutLen(int64_t len, int64_t k, int64_t s, int64_t p)
{
    return (len + 2 * p - k) / s + 1;
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    MaxPooling1dCustomTilingData tiling;
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t k = *(attrs->GetAttrPointer<int64_t>(0));
    int64_t s = *(attrs->GetAttrPointer<int64_t>(1));
    int64_t p = *(attrs->GetAttrPointer<int64_t>(2));
    if (s <= 0) {
        s = k;  // nn.MaxPool1d: stride=None means stride = kernel_size
    }
    // The kernel builds each window max from k shifted copies of the row;
    // that needs stride 1 and left padding of at most one 32 B block.
    if (s != 1 || p < 0 || p > 8 || 2 * p > k) {
        return ge::GRAPH_FAILED;
    }

    uint32_t dims = xs.GetDimNum();
    uint32_t inLen = static_cast<uint32_t>(xs.GetDim(dims - 1));
    uint32_t rows = static_cast<uint32_t>(xs.GetShapeSize() / inLen);
    uint32_t outLen = static_cast<uint32_t>(PoolOutLen(inLen, k, s, p));

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    if (cores > rows) {
        cores = rows;
    }

    tiling.set_rows(rows);
    tiling.set_inLen(inLen);
    tiling.set_outLen(outLen);
    tiling.set_outLenAlign((outLen + 7) / 8 * 8);
    tiling.set_kernelSize(static_cast<uint32_t>(k));
    tiling.set_padding(static_cast<uint32_t>(p));
    tiling.set_rowsPerCore(rows / cores);
    tiling.set_rowsLeft(rows % cores);

    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    gert::Shape *ys = context->GetOutputShape(0);
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t k = *(attrs->GetAttrPointer<int64_t>(0));
    int64_t s = *(attrs->GetAttrPointer<int64_t>(1));
    int64_t p = *(attrs->GetAttrPointer<int64_t>(2));
    if (s <= 0) {
        s = k;
    }
    *ys = *xs;
    size_t last = xs->GetDimNum() - 1;
    ys->SetDim(last, (xs->GetDim(last) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MaxPooling1dCustom : public OpDef {
public:
    explicit MaxPooling1dCustom(const char *name) : OpDef(name)
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
        this->Attr("kernel_size").AttrType(REQUIRED).Int(8);
        this->Attr("stride").AttrType(REQUIRED).Int(1);
        this->Attr("padding").AttrType(REQUIRED).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MaxPooling1dCustom);
} // namespace ops
