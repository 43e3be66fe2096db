#include "matmul_swish_sum_group_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    uint32_t M = xShape.GetDim(0);
    uint32_t K = xShape.GetDim(1);
    uint32_t N = wShape.GetDim(0);
    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float eps = *attrs->GetAttrPointer<float>(1);

    // row-wise epilogue needs whole rows -> split only along M, each core owns full rows
    if (groups == 0 || N % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t groupSize = N / groups;
    if (groupSize % 64 != 0 || N / 64 > 255) {
        return ge::GRAPH_FAILED;   // epilogue reduces 64-float repeats
    }
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    // in x2, out x2, work, bias/gamma/beta -> 8 rows of N floats, plus statistics
    if (static_cast<uint64_t>(N) * sizeof(float) * 8 + 8 * 1024 > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t aiv = plat.GetCoreNumAiv();
    uint32_t rowsPerCore = (M + aiv - 1) / aiv;
    rowsPerCore = (rowsPerCore + 15) / 16 * 16;
    uint32_t usedCores = (M + rowsPerCore - 1) / rowsPerCore;

    matmul_tiling::MatmulApiTiling api(plat);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(rowsPerCore, N, K);
    api.SetOrgShape(M, N, K);
    api.SetBias(true);
    api.SetBufferSpace(-1, -1, -1);

    MatmulSwishSumGroupNormCustomTilingData td;
    if (api.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_M(M);
    td.set_N(N);
    td.set_K(K);
    td.set_rowsPerCore(rowsPerCore);
    td.set_numGroups(groups);
    td.set_groupSize(groupSize);
    td.set_eps(eps);

    // mix launch: blockDim counts AIC, each drives 2 AIV
    context->SetBlockDim((usedCores + 1) / 2);
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
class MatmulSwishSumGroupNormCustom : public OpDef {
public:
    explicit MatmulSwishSumGroupNormCustom(const char* name) : OpDef(name)
    {
        const char* inputs[] = {"x", "weight", "linear_bias", "bias", "gamma", "beta"};
        for (const char* in : inputs) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(OPTIONAL).Int(64);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulSwishSumGroupNormCustom);
}
