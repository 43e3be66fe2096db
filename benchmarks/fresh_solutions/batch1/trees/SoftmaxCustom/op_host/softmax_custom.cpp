#include "softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// A row of 393216 floats (1.5 MB) never fits in UB, so the kernel walks each row
// in tiles twice: an online max/sum pass and a normalize pass.
constexpr uint32_t DEFAULT_TILE = 8192;   // 32 KB per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto shape = context->GetInputShape(0)->GetOriginShape();
    int32_t rank = static_cast<int32_t>(shape.GetDimNum());
    uint32_t rowLen = static_cast<uint32_t>(shape.GetDim(rank - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / rowLen);

    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = ascendc.GetCoreNumAiv();
    uint32_t rowsPerCore = (rows + aivNum - 1) / aivNum;
    uint32_t blockDim = (rows + rowsPerCore - 1) / rowsPerCore;

    uint32_t tileLen = DEFAULT_TILE;
    if (rowLen < tileLen) {
        tileLen = (rowLen + 7) / 8 * 8;
    }
    uint32_t tileNum = rowLen / tileLen;
    uint32_t tailLen = rowLen - tileNum * tileLen;

    SoftmaxCustomTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_rowLen(rowLen);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tileLen(tileLen);
    tiling.set_tileNum(tileNum);
    tiling.set_tailLen(tailLen);

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
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SoftmaxCustom : public OpDef {
public:
    explicit SoftmaxCustom(const char* name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SoftmaxCustom);
}
