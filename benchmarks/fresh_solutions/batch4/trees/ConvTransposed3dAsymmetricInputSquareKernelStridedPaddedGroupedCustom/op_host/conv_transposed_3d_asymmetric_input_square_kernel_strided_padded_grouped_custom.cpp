#include "conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CO_BLK = 8;
constexpr uint64_t UB_BUDGET = 160 * 1024;   // leave headroom for the framework

static inline uint32_t align8(uint32_t v) { return (v + 7) / 8 * 8; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xs = context->GetInputShape(0)->GetStorageShape();   // N, C_in, D, H, W
    auto ws = context->GetInputShape(1)->GetStorageShape();   // C_in, C_out/g, k, k, k
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t grp = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));

    uint32_t n_num = xs.GetDim(0), c_in = xs.GetDim(1);
    uint32_t d_in = xs.GetDim(2), h_in = xs.GetDim(3), w_in = xs.GetDim(4);
    uint32_t cout_g = ws.GetDim(1);
    uint32_t ks = ws.GetDim(2);
    uint32_t c_out = cout_g * grp;
    uint32_t cin_g = c_in / grp;
    uint32_t d_out = (d_in - 1) * stride - 2 * pad + ks;
    uint32_t h_out = (h_in - 1) * stride - 2 * pad + ks;
    uint32_t w_out = (w_in - 1) * stride - 2 * pad + ks;

    uint32_t w_in_pad = align8(w_in + 1);     // one spare zero slot per row for the gather
    uint32_t w_out_pad = align8(w_out);
    uint32_t k3 = ks * ks * ks;
    uint32_t taps = ((ks + stride - 1) / stride) * ((ks + stride - 1) / stride);

    // largest divisor of cout_g (<= MAX_CO_BLK) whose buffers fit into UB
    uint32_t co_blk = 1;
    for (uint32_t cb = MAX_CO_BLK; cb >= 1; --cb) {
        if (cout_g % cb != 0) {
            continue;
        }
        uint64_t need = 0;
        need += static_cast<uint64_t>(cin_g) * align8(cb * k3) * 4;    // weights
        need += static_cast<uint64_t>(cb) * ks * w_in_pad * 4;         // per-kw partial rows
        need += 2ULL * taps * w_in_pad * 4;                            // input rows (double buffered)
        need += static_cast<uint64_t>(ks) * w_out_pad * 4;             // gather offsets
        need += 3ULL * w_out_pad * 4;                                  // gather tmp + 2 out rows
        if (need <= UB_BUDGET) {
            co_blk = cb;
            break;
        }
    }

    uint32_t item_num = n_num * grp * (cout_g / co_blk) * d_out;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t item_per = (item_num + cores - 1) / cores;
    uint32_t used = (item_num + item_per - 1) / item_per;

    ConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGroupedCustomTilingData td;
    td.set_n_num(n_num);
    td.set_c_in(c_in);
    td.set_c_out(c_out);
    td.set_d_in(d_in);
    td.set_h_in(h_in);
    td.set_w_in(w_in);
    td.set_d_out(d_out);
    td.set_h_out(h_out);
    td.set_w_out(w_out);
    td.set_ks(ks);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_grp(grp);
    td.set_cin_g(cin_g);
    td.set_cout_g(cout_g);
    td.set_co_blk(co_blk);
    td.set_w_in_pad(w_in_pad);
    td.set_w_out_pad(w_out_pad);
    td.set_item_num(item_num);
    td.set_item_per(item_per);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t grp = *attrs->GetAttrPointer<int64_t>(2);
    int64_t k = ws->GetDim(2);

    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1) * grp);
    for (size_t i = 2; i < 5; ++i) {
        ys->SetDim(i, (xs->GetDim(i) - 1) * stride - 2 * pad + k);
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGroupedCustom : public OpDef {
public:
    explicit ConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGroupedCustom(const char *name) : OpDef(name)
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
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("groups").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGroupedCustom);
} // namespace ops
