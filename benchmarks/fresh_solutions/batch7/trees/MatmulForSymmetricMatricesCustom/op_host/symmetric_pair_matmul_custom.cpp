#include "symmetric_pair_matmul_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr uint32_t OUT_TILE_M = 256;
constexpr uint32_t OUT_TILE_N = 512;
constexpr uint32_t SWIZZLE_ROWS = 4;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const auto &ls = context->GetInputShape(0)->GetStorageShape();
    const auto &rs = context->GetInputShape(1)->GetStorageShape();
    if (ls.GetDimNum() != 2 || rs.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t M = static_cast<uint32_t>(ls.GetDim(0));
    uint32_t K = static_cast<uint32_t>(ls.GetDim(1));
    uint32_t N = static_cast<uint32_t>(rs.GetDim(1));
    // rhs must be square for the transposed read to be valid
    if (static_cast<uint32_t>(rs.GetDim(0)) != K || K != N) {
        return ge::GRAPH_FAILED;
    }

    uint32_t tileM = M < OUT_TILE_M ? M : OUT_TILE_M;
    uint32_t tileN = N < OUT_TILE_N ? N : OUT_TILE_N;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    matmul_tiling::MatmulApiTiling api(platform);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT, false);
    // rhs read as transposed: valid because rhs is symmetric
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT, true);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
    api.SetOrgShape(M, N, K);
    api.SetShape(tileM, tileN, K);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);

    SymmetricPairMatmulTilingData td;
    if (api.GetTiling(td.mmCfg) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t tilesM = (M + tileM - 1) / tileM;
    uint32_t tilesN = (N + tileN - 1) / tileN;
    td.set_dimM(M);
    td.set_dimN(N);
    td.set_dimK(K);
    td.set_tileM(tileM);
    td.set_tileN(tileN);
    td.set_tilesAlongM(tilesM);
    td.set_tilesAlongN(tilesN);
    td.set_groupRows(SWIZZLE_ROWS);

    uint32_t aic = platform.GetCoreNumAic();
    uint32_t tiles = tilesM * tilesN;
    context->SetBlockDim(tiles < aic ? tiles : aic);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *l = context->GetInputShape(0);
    const gert::Shape *r = context->GetInputShape(1);
    gert::Shape *o = context->GetOutputShape(0);
    o->SetDimNum(2);
    o->SetDim(0, l->GetDim(0));
    o->SetDim(1, r->GetDim(1));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class SymmetricPairMatmulCustom : public OpDef {
public:
    explicit SymmetricPairMatmulCustom(const char *name) : OpDef(name)
    {
        this->Input("lhs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("rhs")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SymmetricPairMatmulCustom);
} // namespace ops
