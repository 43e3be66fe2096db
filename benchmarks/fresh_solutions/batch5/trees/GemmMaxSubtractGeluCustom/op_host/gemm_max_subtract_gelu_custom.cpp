#include "gemm_max_subtract_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ROW_TILE = 8192;
constexpr uint32_t ROW_CHUNK = 256;
constexpr uint32_t COL_TILE = 2048;
constexpr uint32_t ROWS_PER_LOAD = 4;

static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GemmMaxSubtractGeluCustomTilingData tiling;
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t m = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t n = static_cast<uint32_t>(shape.GetDim(1));
    const int64_t* dimPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t maxDim = dimPtr == nullptr ? 1 : *dimPtr;
    if (maxDim < 0) {
        maxDim += 2;
    }
    if (maxDim != 0 && maxDim != 1) {
        return ge::GRAPH_FAILED;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t blockDim = 1;

    tiling.set_m(m);
    tiling.set_n(n);
    tiling.set_maxDim(static_cast<uint32_t>(maxDim));
    tiling.set_tileLen(n < ROW_TILE ? AlignUp(n, 8) : ROW_TILE);
    tiling.set_rowChunk(ROW_CHUNK);
    tiling.set_colTile(COL_TILE);
    tiling.set_rowsPerLoad(ROWS_PER_LOAD);

    if (maxDim == 1) {
        blockDim = m < coreNum ? m : coreNum;
        if (blockDim == 0) {
            blockDim = 1;
        }
        tiling.set_rowsPerCore(m / blockDim);
        tiling.set_rowsTail(m % blockDim);
        tiling.set_colsPerCore(n);
    } else {
        // 按列切分，每核列数 8 对齐，保证 workspace 写回不相互踩
        uint32_t cols = AlignUp((n + coreNum - 1) / coreNum, 8);
        blockDim = (n + cols - 1) / cols;
        if (blockDim == 0) {
            blockDim = 1;
        }
        tiling.set_colsPerCore(cols);
        tiling.set_rowsPerCore(m);
        tiling.set_rowsTail(0);
    }

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // maxDim=0 需要一块 GM 暂存列最大值，同时 SyncAll 需要系统 workspace
    size_t sysWorkspace = platform.GetLibApiWorkSpaceSize();
    size_t userWorkspace = (maxDim == 0) ? static_cast<size_t>(AlignUp(n, 8)) * sizeof(float) : 0;
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = sysWorkspace + userWorkspace;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    const int64_t* dimPtr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t maxDim = dimPtr == nullptr ? 1 : *dimPtr;
    if (maxDim < 0) {
        maxDim += 2;
    }
    yShape->SetDimNum(2);
    if (maxDim == 1) {
        yShape->SetDim(0, xShape->GetDim(0));
        yShape->SetDim(1, 1);
    } else {
        yShape->SetDim(0, 1);
        yShape->SetDim(1, xShape->GetDim(1));
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmMaxSubtractGeluCustom : public OpDef {
public:
    explicit GemmMaxSubtractGeluCustom(const char* name) : OpDef(name)
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
        this->Attr("max_dim").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmMaxSubtractGeluCustom);
}
