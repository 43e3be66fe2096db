#include "matrix_scalar_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_ELEMS = 8;        // one 32-byte block of float
constexpr uint32_t TILE_LENGTH = 16384;    // 64 KB, in-place buffer, double buffered

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MatrixScalarMultiplicationCustomTilingData tiling;
    uint64_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    const float* s = context->GetAttrs()->GetAttrPointer<float>(0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }

    // distribute whole 32-byte blocks; the first `formerNum` cores get one extra block,
    // the element remainder (< 8) goes to the last core
    uint64_t blocks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    uint32_t blockDim = blocks < coreNum ? static_cast<uint32_t>(blocks) : coreNum;
    if (blockDim == 0) {
        blockDim = 1;
    }
    uint64_t baseBlocks = blocks / blockDim;
    uint32_t formerNum = static_cast<uint32_t>(blocks % blockDim);

    tiling.set_totalLength(total);
    tiling.set_formerLength((baseBlocks + 1) * ALIGN_ELEMS);
    tiling.set_tailLength(baseBlocks * ALIGN_ELEMS);
    tiling.set_formerNum(formerNum);
    tiling.set_tileLength(TILE_LENGTH);
    tiling.set_scalar(*s);

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
class MatrixScalarMultiplicationCustom : public OpDef {
public:
    explicit MatrixScalarMultiplicationCustom(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("s").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatrixScalarMultiplicationCustom);
}
