// host side: matmul tiling, shape inference, op registration
#include "matmul_subtract_multiply_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *ctx)
{
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto ws = ctx->GetInputShape(1)->GetStorageShape();
    int32_t m = xs.GetDim(0), k = xs.GetDim(1), n = ws.GetDim(0);
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    MultiCoreMatmulTiling mt(plat);
    mt.SetDim(aiv);
    mt.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(true);
    mt.SetFixSplit(128, 128, -1);
    mt.SetBufferSpace(-1, -1, -1);
    MatmulSubtractMultiplyReluCustomTilingData t;
    if (mt.GetTiling(t.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    const float *sv = ctx->GetAttrs()->GetFloat(0);
    const float *mv = ctx->GetAttrs()->GetFloat(1);
    t.set_subVal(*sv);
    t.set_mulVal(*mv);
    uint32_t used = t.cube.get_usedCoreNum();
    ctx->SetBlockDim((used + 1) / 2);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *w = ctx->GetInputShape(1);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulSubtractMultiplyReluCustom : public OpDef {
public:
    explicit MatmulSubtractMultiplyReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("subtract_value").Float();
        this->Attr("multiply_value").Float();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulSubtractMultiplyReluCustom);
}
