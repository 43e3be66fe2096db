#include "conv_standard_1d_dilated_strided_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t L_TILE = 2048;
constexpr uint32_t SEG_MAX = 16384;   // floats of raw input staged in UB per channel

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto ws = ctx->GetInputShape(1)->GetStorageShape();
    uint32_t s = static_cast<uint32_t>(*ctx->GetAttrs()->GetAttrPointer<int64_t>(0));
    uint32_t d = static_cast<uint32_t>(*ctx->GetAttrs()->GetAttrPointer<int64_t>(1));
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), l = xs.GetDim(2);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t lout = (l - d * (k - 1) - 1) / s + 1;

    uint32_t lt = L_TILE;
    // staged input span must fit UB
    while (lt > 8 && (lt - 1) * s + (k - 1) * d + 1 > SEG_MAX) lt /= 2;
    if (lt > lout) lt = (lout + 7) / 8 * 8;

    ConvStandard1dDilatedStridedCustomTilingData td;
    td.set_batch(n); td.set_cin(cin); td.set_cout(cout);
    td.set_lenIn(l); td.set_lenOut(lout);
    td.set_ksize(k); td.set_stride(s); td.set_dilation(d);
    td.set_lTile(lt);
    td.set_tilesPerBatch((lout + lt - 1) / lt);
    uint32_t cores = plat.GetCoreNumAic();
    td.set_coreNum(cores);

    matmul_tiling::MatmulApiTiling mt(plat);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(cout, lt, cin * k);
    mt.SetOrgShape(cout, lt, cin * k);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(td.mmTiling) == -1) return ge::GRAPH_FAILED;

    ctx->SetBlockDim(cores);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // per core: col tile (cin*k x lt) + out tile (cout x lt)
    size_t user = (size_t)cores * ((size_t)cin * k + cout) * lt * sizeof(float);
    size_t* wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = user + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* xs = ctx->GetInputShape(0);
    const gert::Shape* ws = ctx->GetInputShape(1);
    int64_t s = *ctx->GetAttrs()->GetAttrPointer<int64_t>(0);
    int64_t d = *ctx->GetAttrs()->GetAttrPointer<int64_t>(1);
    gert::Shape* ys = ctx->GetOutputShape(0);
    ys->SetDimNum(3);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, (xs->GetDim(2) - d * (ws->GetDim(2) - 1) - 1) / s + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard1dDilatedStridedCustom : public OpDef {
public:
    explicit ConvStandard1dDilatedStridedCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvStandard1dDilatedStridedCustom);
}
