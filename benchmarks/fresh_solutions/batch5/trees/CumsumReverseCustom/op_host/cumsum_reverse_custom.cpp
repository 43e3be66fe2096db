#include "cumsum_reverse_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t CHUNK_LEN = 2048;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    CumsumReverseCustomTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    int32_t rank = static_cast<int32_t>(shape.GetDimNum());
    const int64_t* dimPtr = context->GetAttrs()->GetInt(0);
    int32_t dim = dimPtr == nullptr ? rank - 1 : static_cast<int32_t>(*dimPtr);
    if (dim < 0) {
        dim += rank;
    }
    // kernel scans along a contiguous axis only
    uint64_t inner = 1;
    for (int32_t i = dim + 1; i < rank; ++i) {
        inner *= shape.GetDim(i);
    }
    if (inner != 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = 1;
    for (int32_t i = 0; i < dim; ++i) {
        rows *= static_cast<uint32_t>(shape.GetDim(i));
    }
    uint32_t rowLen = static_cast<uint32_t>(shape.GetDim(dim));
    if (rowLen == 0 || rowLen % 8 != 0) {
        return ge::GRAPH_FAILED;   // chunks must be whole 32B blocks
    }

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    uint32_t blockDim = rows < coreNum ? rows : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    uint32_t chunkLen = rowLen < CHUNK_LEN ? rowLen : CHUNK_LEN;
    uint32_t chunkNum = (rowLen + chunkLen - 1) / chunkLen;
    uint32_t headLen = rowLen - (chunkNum - 1) * chunkLen;

    tiling.set_rows(rows);
    tiling.set_rowLen(rowLen);
    tiling.set_rowsPerCore(rows / blockDim);
    tiling.set_extraRows(rows % blockDim);
    tiling.set_chunkLen(chunkLen);
    tiling.set_chunkNum(chunkNum);
    tiling.set_headLen(headLen);

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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class CumsumReverseCustom : public OpDef {
public:
    explicit CumsumReverseCustom(const char* name) : OpDef(name)
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
        this->Attr("dim").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(CumsumReverseCustom);
}
