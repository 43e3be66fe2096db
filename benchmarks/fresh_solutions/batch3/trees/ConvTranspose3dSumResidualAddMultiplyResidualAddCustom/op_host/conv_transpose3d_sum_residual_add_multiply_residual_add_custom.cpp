#include "conv_transpose3d_sum_residual_add_multiply_residual_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ACC_BUDGET = 64 * 1024;   // bytes for the per-tile accumulators

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();   // (Cin, Cout, k, k, k)
    auto attrs = context->GetAttrs();
    uint32_t s = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t p = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t op = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(1);
    uint32_t k = ws.GetDim(2);
    uint32_t od = (d - 1) * s - 2 * p + k + op;
    uint32_t oh = (h - 1) * s - 2 * p + k + op;
    uint32_t ow = (w - 1) * s - 2 * p + k + op;
    // sub-pixel split needs the output to tile evenly by stride
    if (oh % s != 0 || ow % s != 0 || (oh * ow) % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t subH = oh / s, subW = ow / s;
    uint32_t subWA = (subW + 7) / 8 * 8;
    if (subWA - subW > 8) {
        return ge::GRAPH_FAILED;
    }

    uint32_t planeAccBytes = s * s * subH * subWA * sizeof(float);
    uint32_t coBlock = ACC_BUDGET / planeAccBytes;
    if (coBlock == 0) coBlock = 1;
    if (coBlock > cout) coBlock = cout;
    while (cout % coBlock != 0) coBlock--;

    uint32_t total = n * od * (cout / coBlock);
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (total + cores - 1) / cores;

    ConvTranspose3dSumResidualAddMultiplyResidualAddCustomTilingData td;
    td.set_n(n); td.set_cin(cin); td.set_cout(cout);
    td.set_inD(d); td.set_inH(h); td.set_inW(w);
    td.set_outD(od); td.set_outH(oh); td.set_outW(ow);
    td.set_ksize(k); td.set_stride(s); td.set_pad(p);
    td.set_subH(subH); td.set_subW(subW); td.set_subWAlign(subWA);
    td.set_coBlock(coBlock);
    td.set_totalTiles(total);
    td.set_tilesPerCore(per);

    context->SetBlockDim((total + per - 1) / per);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    int64_t k = ws->GetDim(2);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    for (int i = 2; i < 5; ++i) {
        ys->SetDim(i, (xs->GetDim(i) - 1) * s - 2 * p + k + op);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dSumResidualAddMultiplyResidualAddCustom : public OpDef {
public:
    explicit ConvTranspose3dSumResidualAddMultiplyResidualAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").Int();
        this->Attr("padding").Int();
        this->Attr("output_padding").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose3dSumResidualAddMultiplyResidualAddCustom);
}
