#include "bmm_instance_norm_sum_residual_add_multiply_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_ROW_LEN = 8192;   // whole row kept in UB (h, y, out, tmp)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(2)->GetStorageShape();
    uint32_t batch = xShape.GetDim(0);
    uint32_t inF = xShape.GetDim(1);
    uint32_t outF = wShape.GetDim(0);
    if (outF > MAX_ROW_LEN || outF % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    float eps = *context->GetAttrs()->GetAttrPointer<float>(0);

    uint32_t aicNum = plat.GetCoreNumAic();
    uint32_t blockRows = (batch + aicNum - 1) / aicNum;
    uint32_t coreUsed = (batch + blockRows - 1) / blockRows;

    BmmInstanceNormSumResidualAddMultiplyCustomTilingData td;
    matmul_tiling::MatmulApiTiling api(plat);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(blockRows, outF, inF);
    api.SetOrgShape(batch, outF, inF);
    api.SetBias(true);
    api.SetBufferSpace(-1, -1, -1);
    if (api.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    td.set_batch(batch);
    td.set_inFeatures(inF);
    td.set_outFeatures(outF);
    td.set_blockRows(blockRows);
    td.set_coreUsed(coreUsed);
    td.set_eps(eps);

    context->SetBlockDim(coreUsed);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    // out has y's shape (batch, out_features)
    *context->GetOutputShape(0) = *context->GetInputShape(1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class BmmInstanceNormSumResidualAddMultiplyCustom : public OpDef {
public:
    explicit BmmInstanceNormSumResidualAddMultiplyCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BmmInstanceNormSumResidualAddMultiplyCustom);
}
