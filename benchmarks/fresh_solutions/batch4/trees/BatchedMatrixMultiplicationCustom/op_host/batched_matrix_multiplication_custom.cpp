// host side: matmul tiling, shape inference, op registration
#include "batched_matrix_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *ctx)
{
    auto as = ctx->GetInputShape(0)->GetStorageShape();
    auto bs = ctx->GetInputShape(1)->GetStorageShape();
    uint32_t batch = as.GetDim(0);
    int32_t m = as.GetDim(1), k = as.GetDim(2), n = bs.GetDim(2);
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    uint32_t split = 1;
    while (batch * split < aiv && (n / (split * 2)) >= 256 && (n % (split * 2 * 16)) == 0) {
        split *= 2;
    }
    int32_t sn = n / split;
    matmul_tiling::MatmulApiTiling mt(plat);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(m, sn, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);
    BatchedMatrixMultiplicationCustomTilingData t;
    if (mt.GetTiling(t.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t jobs = batch * split;
    uint32_t workers = jobs < aiv ? jobs : aiv;
    t.set_batch(batch);
    t.set_workers(workers);
    t.set_splitN(split);
    ctx->SetBlockDim((workers + 1) / 2);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *a = ctx->GetInputShape(0);
    const gert::Shape *b = ctx->GetInputShape(1);
    gert::Shape *c = ctx->GetOutputShape(0);
    c->SetDimNum(3);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, a->GetDim(1));
    c->SetDim(2, b->GetDim(2));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class BatchedMatrixMultiplicationCustom : public OpDef {
public:
    explicit BatchedMatrixMultiplicationCustom(const char *name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BatchedMatrixMultiplicationCustom);
}
