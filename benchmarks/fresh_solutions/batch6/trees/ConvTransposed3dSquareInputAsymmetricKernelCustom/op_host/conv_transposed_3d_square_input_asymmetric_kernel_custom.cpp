#include "conv_transposed_3d_square_input_asymmetric_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_FOR_ACC_W = 96 * 1024;   // accumulator + weight slice budget

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();   // [N, Ci, D, H, W]
    const gert::Shape &ws = context->GetInputShape(1)->GetOriginShape();   // [Ci, Co, KD, KH, KW]
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), c_in = xs.GetDim(1), id = xs.GetDim(2), ih = xs.GetDim(3), iw = xs.GetDim(4);
    uint32_t c_out = ws.GetDim(1), kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    if (kw > 8) {
        return ge::GRAPH_FAILED;   // left padding of DataCopyPad is limited to one 32B block
    }
    uint32_t od = id + kd - 1, oh = ih + kh - 1, ow = iw + kw - 1;
    uint32_t ow_al = (ow + 7) / 8 * 8;
    uint32_t k_vol = kd * kh * kw;

    // per output channel: one accumulator line + its weight slice
    uint32_t per_co = (ow_al + k_vol) * sizeof(float);
    uint32_t co_blk = UB_FOR_ACC_W / per_co;
    if (co_blk == 0) {
        co_blk = 1;
    }
    if (co_blk > c_out) {
        co_blk = c_out;
    }

    uint32_t row_total = n * od * oh;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk_num = plat.GetCoreNumAiv();
    if (blk_num > row_total) {
        blk_num = row_total;
    }
    if (blk_num == 0) {
        blk_num = 1;
    }
    uint32_t rows_per_core = (row_total + blk_num - 1) / blk_num;
    blk_num = (row_total + rows_per_core - 1) / rows_per_core;

    ConvTransposed3dSquareInputAsymmetricKernelCustomTilingData tiling;
    tiling.set_c_in(c_in);
    tiling.set_c_out(c_out);
    tiling.set_id(id);
    tiling.set_ih(ih);
    tiling.set_iw(iw);
    tiling.set_kd(kd);
    tiling.set_kh(kh);
    tiling.set_kw(kw);
    tiling.set_od(od);
    tiling.set_oh(oh);
    tiling.set_ow(ow);
    tiling.set_ow_al(ow_al);
    tiling.set_co_blk(co_blk);
    tiling.set_row_total(row_total);
    tiling.set_rows_per_core(rows_per_core);

    context->SetBlockDim(blk_num);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) + ws->GetDim(2) - 1);
    ys->SetDim(3, xs->GetDim(3) + ws->GetDim(3) - 1);
    ys->SetDim(4, xs->GetDim(4) + ws->GetDim(4) - 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvTransposed3dSquareInputAsymmetricKernelCustom : public OpDef {
public:
    explicit ConvTransposed3dSquareInputAsymmetricKernelCustom(const char *name) : OpDef(name)
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

OP_ADD(ConvTransposed3dSquareInputAsymmetricKernelCustom);
} // namespace ops
