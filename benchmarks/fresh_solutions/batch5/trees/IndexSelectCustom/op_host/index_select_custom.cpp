#include "index_select_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_ROW_IN_UB = 16384;   // mode 0 下整行最多 16K 个 float（双缓冲共 128KB）
constexpr uint32_t INDEX_TILE = 4096;
constexpr uint32_t COPY_TILE = 16384;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    IndexSelectCustomTilingData tiling;
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& idxShape = context->GetInputShape(1)->GetStorageShape();
    int64_t rank = static_cast<int64_t>(xShape.GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    if (dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }

    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t i = 0; i < dim; ++i) {
        outer *= xShape.GetDim(i);
    }
    for (int64_t i = dim + 1; i < rank; ++i) {
        inner *= xShape.GetDim(i);
    }
    uint32_t dimSize = static_cast<uint32_t>(xShape.GetDim(dim));
    uint32_t indexLen = static_cast<uint32_t>(idxShape.GetShapeSize());

    // 最后一维上的选择（inner == 1）且整行能放进 UB 时走 Gather 路径
    uint32_t mode = (inner == 1 && dimSize <= MAX_ROW_IN_UB) ? 0 : 1;
    uint64_t totalTask = (mode == 0) ? outer : outer * indexLen;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t blockDim = totalTask < coreNum ? static_cast<uint32_t>(totalTask) : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }

    uint32_t indexTile = indexLen < INDEX_TILE ? (indexLen + 7) / 8 * 8 : INDEX_TILE;
    uint32_t copyTile = inner < COPY_TILE ? static_cast<uint32_t>((inner + 7) / 8 * 8) : COPY_TILE;

    tiling.set_outer(static_cast<uint32_t>(outer));
    tiling.set_dimSize(dimSize);
    tiling.set_inner(static_cast<uint32_t>(inner));
    tiling.set_indexLen(indexLen);
    tiling.set_mode(mode);
    tiling.set_indexTile(indexTile == 0 ? 8 : indexTile);
    tiling.set_copyTile(copyTile);
    tiling.set_taskPerCore(static_cast<uint32_t>(totalTask / blockDim));
    tiling.set_taskTail(static_cast<uint32_t>(totalTask % blockDim));

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
    const gert::Shape* idxShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    int64_t rank = static_cast<int64_t>(xShape->GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (dim < 0) {
        dim += rank;
    }
    *yShape = *xShape;
    yShape->SetDim(dim, idxShape->GetShapeSize());
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class IndexSelectCustom : public OpDef {
public:
    explicit IndexSelectCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("index")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("dim").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(IndexSelectCustom);
}
