#include "gru_bidirectional_hidden_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t W_BUF_BYTES = 48 * 1024;   // one of two buffers for streamed W_hh^T rows

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &gi_s = context->GetInputShape(0)->GetOriginShape();   // [T, B, 3H]
    const gert::Shape &h0_s = context->GetInputShape(3)->GetOriginShape();   // [B, H]
    uint32_t t_len = gi_s.GetDim(0);
    uint32_t bsz = gi_s.GetDim(1);
    uint32_t hid = h0_s.GetDim(1);
    if (gi_s.GetDim(2) != 3 * hid || hid % 8 != 0) {
        return ge::GRAPH_FAILED;   // kernel uses plain DataCopy, rows must be 32B aligned
    }
    const bool *rev = context->GetAttrs()->GetBool(0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk_num = plat.GetCoreNumAiv();
    if (blk_num > bsz) {
        blk_num = bsz;
    }
    if (blk_num == 0) {
        blk_num = 1;
    }
    uint32_t b_per_core = (bsz + blk_num - 1) / blk_num;
    blk_num = (bsz + b_per_core - 1) / b_per_core;

    uint32_t k_blk = W_BUF_BYTES / (3 * hid * sizeof(float));
    if (k_blk == 0) {
        k_blk = 1;
    }
    if (k_blk > hid) {
        k_blk = hid;
    }

    GruBidirectionalHiddenCustomTilingData tiling;
    tiling.set_t_len(t_len);
    tiling.set_bsz(bsz);
    tiling.set_hid(hid);
    tiling.set_b_per_core(b_per_core);
    tiling.set_k_blk(k_blk);
    tiling.set_reverse((rev != nullptr && *rev) ? 1 : 0);

    context->SetBlockDim(blk_num);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *gi_s = context->GetInputShape(0);
    const gert::Shape *h0_s = context->GetInputShape(3);
    gert::Shape *y_s = context->GetOutputShape(0);
    gert::Shape *hn_s = context->GetOutputShape(1);
    y_s->SetDimNum(3);
    y_s->SetDim(0, gi_s->GetDim(0));
    y_s->SetDim(1, gi_s->GetDim(1));
    y_s->SetDim(2, h0_s->GetDim(1));
    *hn_s = *h0_s;
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class GruBidirectionalHiddenCustom : public OpDef {
public:
    explicit GruBidirectionalHiddenCustom(const char *name) : OpDef(name)
    {
        this->Input("gi").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("w_hh_t").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b_hh").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("h0").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("h_n").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("reverse").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GruBidirectionalHiddenCustom);
} // namespace ops
