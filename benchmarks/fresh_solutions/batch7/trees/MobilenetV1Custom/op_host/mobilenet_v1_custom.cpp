#include "mobilenet_v1_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t KSIZE = 3;
constexpr uint32_t PAD = 1;
constexpr uint32_t MAX_CTILE = 64;   // one 256B vector repeat of float

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    // x: (N, H, W, C) channels-last, weight: (9, C)
    const auto &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0);
    uint32_t h = xs.GetDim(1);
    uint32_t w = xs.GetDim(2);
    uint32_t c = xs.GetDim(3);

    const auto *attrs = context->GetAttrs();
    const int64_t *strideAttr = attrs->GetAttrPointer<int64_t>(0);
    uint32_t stride = strideAttr == nullptr ? 1 : static_cast<uint32_t>(*strideAttr);

    uint32_t oh = (h + 2 * PAD - KSIZE) / stride + 1;
    uint32_t ow = (w + 2 * PAD - KSIZE) / stride + 1;

    uint32_t cTile = c < MAX_CTILE ? c : MAX_CTILE;
    if (c % cTile != 0 || cTile % 8 != 0) {
        return ge::GRAPH_FAILED;   // MobileNet widths are multiples of 32
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    // 3 input rows + 2 output rows (double buffer) + 9 weight vectors
    uint64_t need = (3ULL * w + 2ULL * ow + KSIZE * KSIZE) * cTile * sizeof(float);
    if (need > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t totalTasks = (c / cTile) * n * oh;
    uint32_t tasksPerCore = (totalTasks + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalTasks + tasksPerCore - 1) / tasksPerCore;

    MobilenetV1CustomTilingData tiling;
    tiling.set_batch(n);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_channels(c);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_stride(stride);
    tiling.set_cTile(cTile);
    tiling.set_totalTasks(totalTasks);
    tiling.set_tasksPerCore(tasksPerCore);

    context->SetBlockDim(usedCores);
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
    const gert::Shape *xShape = context->GetInputShape(0);
    const int64_t *strideAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t stride = strideAttr == nullptr ? 1 : *strideAttr;
    gert::Shape *yShape = context->GetOutputShape(0);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, (xShape->GetDim(1) + 2 - 3) / stride + 1);
    yShape->SetDim(2, (xShape->GetDim(2) + 2 - 3) / stride + 1);
    yShape->SetDim(3, xShape->GetDim(3));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MobilenetV1Custom : public OpDef {
public:
    explicit MobilenetV1Custom(const char *name) : OpDef(name)
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
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MobilenetV1Custom);
} // namespace ops
