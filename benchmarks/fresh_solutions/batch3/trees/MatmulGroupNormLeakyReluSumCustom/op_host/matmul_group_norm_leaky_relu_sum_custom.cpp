#include "matmul_group_norm_leaky_relu_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& wShape = context->GetInputShape(1)->GetStorageShape();
    uint32_t M = xShape.GetDim(0);
    uint32_t K = xShape.GetDim(1);
    uint32_t N = wShape.GetDim(0);

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t numGroups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float eps = *attrs->GetAttrPointer<float>(1);
    float slope = *attrs->GetAttrPointer<float>(2);
    if (numGroups == 0 || N % numGroups != 0) {
        return ge::GRAPH_FAILED;
    }

    // each core owns a band of full rows -> group norm stays core-local
    uint32_t coreNum = ascendcPlatform.GetCoreNumAic();
    uint32_t rowsPerCore = (M + coreNum - 1) / coreNum;
    uint32_t usedCoreNum = (M + rowsPerCore - 1) / rowsPerCore;

    MatmulGroupNormLeakyReluSumCustomTilingData tiling;
    MatmulApiTiling mmTiling(ascendcPlatform);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(rowsPerCore, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);
    if (mmTiling.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_M(M);
    tiling.set_N(N);
    tiling.set_K(K);
    tiling.set_numGroups(numGroups);
    tiling.set_groupSize(N / numGroups);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_usedCoreNum(usedCoreNum);
    tiling.set_eps(eps);
    tiling.set_negSlope(slope);

    context->SetBlockDim(usedCoreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = ascendcPlatform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* wShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulGroupNormLeakyReluSumCustom : public OpDef {
public:
    explicit MatmulGroupNormLeakyReluSumCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulGroupNormLeakyReluSumCustom);
}
