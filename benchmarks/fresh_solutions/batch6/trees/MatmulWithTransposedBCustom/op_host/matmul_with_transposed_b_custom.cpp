// host side: tiling, shape inference, op definition
#include "matmul_with_transposed_b_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto as = ctx->GetInputShape(0)->GetStorageShape();
    auto bs = ctx->GetInputShape(1)->GetStorageShape();
    int32_t M = as.GetDim(0), K = as.GetDim(1), N = bs.GetDim(0);
    uint32_t cores = plat.GetCoreNumAic();
    if (cores == 0) cores = 1;

    matmul_tiling::MultiCoreMatmulTiling mt(plat);
    mt.SetDim(cores);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);

    MatmulWithTransposedBCustomTilingData t;
    if (mt.GetTiling(t.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    int32_t sm = t.cube.get_singleCoreM(), sn = t.cube.get_singleCoreN();
    uint32_t blocks = static_cast<uint32_t>(((M + sm - 1) / sm) * ((N + sn - 1) / sn));
    if (blocks > cores) blocks = cores;
    t.set_usedCores(blocks);
    ctx->SetBlockDim(blocks);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* a = ctx->GetInputShape(0);
    const gert::Shape* b = ctx->GetInputShape(1);
    gert::Shape* c = ctx->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulWithTransposedBCustom : public OpDef {
public:
    explicit MatmulWithTransposedBCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulWithTransposedBCustom);
}
