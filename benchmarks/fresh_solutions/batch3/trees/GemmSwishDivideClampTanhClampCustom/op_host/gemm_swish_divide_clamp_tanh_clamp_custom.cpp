#include "gemm_swish_divide_clamp_tanh_clamp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
// one base block of C is pulled into UB for the epilogue: 64 x 128 fp32 = 32 KB
constexpr int32_t BASE_M = 64;
constexpr int32_t BASE_N = 128;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GemmSwishDivideClampTanhClampCustomTilingData td;

    const auto& x_shape = context->GetInputShape(0)->GetStorageShape();   // [M, K]
    const auto& w_shape = context->GetInputShape(1)->GetStorageShape();   // [N, K]
    int32_t m = static_cast<int32_t>(x_shape.GetDim(0));
    int32_t k = static_cast<int32_t>(x_shape.GetDim(1));
    int32_t n = static_cast<int32_t>(w_shape.GetDim(0));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic_num = plat.GetCoreNumAic();
    uint32_t aiv_num = plat.GetCoreNumAiv();

    // matmul is driven from the vector cores (the epilogue lives there), so the
    // split is over AIV cores; each AIC serves two of them
    matmul_tiling::MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aiv_num);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetOrgShape(m, n, k);
    mm.SetShape(m, n, k);
    mm.SetBias(true);
    mm.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTM);
    mm.SetFixSplit(BASE_M, BASE_N, -1);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.mm_tiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    td.set_tanh_tmp(2 * BASE_M * BASE_N * sizeof(float));

    uint32_t used = static_cast<uint32_t>(td.mm_tiling.get_usedCoreNum());
    uint32_t blk_dim = (used + 1) / 2;            // launch counts AIC/AIV groups
    if (blk_dim > aic_num) {
        blk_dim = aic_num;
    }
    if (blk_dim == 0) {
        blk_dim = 1;
    }
    context->SetBlockDim(blk_dim);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmSwishDivideClampTanhClampCustom : public OpDef {
public:
    explicit GemmSwishDivideClampTanhClampCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
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

OP_ADD(GemmSwishDivideClampTanhClampCustom);
}
