#include "three_dim_tensor_matrix_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
// A: [N, M, K] is contiguous, so A @ B is a single GEMM of [N*M, K] x [K, L].
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetStorageShape();
    size_t aDims = aShape.GetDimNum();
    int32_t k = static_cast<int32_t>(aShape.GetDim(aDims - 1));
    int32_t rows = 1;
    for (size_t i = 0; i + 1 < aDims; ++i) {
        rows *= static_cast<int32_t>(aShape.GetDim(i));
    }
    int32_t l = static_cast<int32_t>(bShape.GetDim(1));
    if (static_cast<int32_t>(bShape.GetDim(0)) != k) {
        return ge::GRAPH_FAILED;
    }

    matmul_tiling::MultiCoreMatmulTiling gemm(platform);
    gemm.SetDim(platform.GetCoreNumAiv());
    gemm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    gemm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    gemm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    gemm.SetShape(rows, l, k);
    gemm.SetOrgShape(rows, l, k);
    gemm.SetBias(false);
    gemm.SetBufferSpace(-1, -1, -1);

    ThreeDimTensorMatrixMultiplicationCustomTilingData tiling;
    if (gemm.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t used = tiling.mm.get_usedCoreNum();
    context->SetBlockDim((used + 1) / 2);   // MIX 1:2 -> block dim counts cube cores

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* c = context->GetOutputShape(0);
    *c = *a;
    c->SetDim(a->GetDimNum() - 1, b->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ThreeDimTensorMatrixMultiplicationCustom : public OpDef {
public:
    explicit ThreeDimTensorMatrixMultiplicationCustom(const char* name) : OpDef(name)
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

OP_ADD(ThreeDimTensorMatrixMultiplicationCustom);
}
