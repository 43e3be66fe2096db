#include "matmul_with_transposed_b_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
/*
 * C[M, N] = A[M, K] * B[N, K]^T
 * B is consumed in its stored (N, K) layout and flagged as transposed for the
 * cube unit, so no explicit transpose pass is needed.
 */
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape &aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &bShape = context->GetInputShape(1)->GetStorageShape();
    int32_t M = static_cast<int32_t>(aShape.GetDim(0));
    int32_t K = static_cast<int32_t>(aShape.GetDim(1));
    int32_t N = static_cast<int32_t>(bShape.GetDim(0));
    if (bShape.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }

    uint32_t coreNum = platform.GetCoreNumAic();
    if (coreNum == 0) {
        coreNum = 1;
    }

    MultiCoreMatmulTiling mmTiling(platform);
    mmTiling.SetDim(coreNum);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(false);
    mmTiling.SetBufferSpace(-1, -1, -1);

    MatmulWithTransposedBCustomTilingData tiling;
    if (mmTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }

    // The tiler may decide to use fewer cores than offered.
    uint32_t usedCoreNum = static_cast<uint32_t>(tiling.cubeTilingData.get_usedCoreNum());
    if (usedCoreNum == 0 || usedCoreNum > coreNum) {
        usedCoreNum = coreNum;
    }
    tiling.set_usedCoreNum(usedCoreNum);
    context->SetBlockDim(usedCoreNum);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // Matmul high-level API needs the library system workspace.
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *aShape = context->GetInputShape(0);
    const gert::Shape *bShape = context->GetInputShape(1);
    gert::Shape *cShape = context->GetOutputShape(0);
    cShape->SetDimNum(2);
    cShape->SetDim(0, aShape->GetDim(0));
    cShape->SetDim(1, bShape->GetDim(0));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MatmulWithTransposedBCustom : public OpDef {
public:
    explicit MatmulWithTransposedBCustom(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulWithTransposedBCustom);
} // namespace ops
