#include "conv_transpose2d_max_pool_hardtanh_mean_tanh_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t IN_BUF_BYTES = 32 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    auto attrs = context->GetAttrs();
    int64_t pk = *attrs->GetInt(0);
    int64_t ps = *attrs->GetInt(1);
    float ht_min = *attrs->GetFloat(2);
    float ht_max = *attrs->GetFloat(3);
    if (pk != 2 || ps != 2) {
        return ge::GRAPH_FAILED;   // kernel is specialised for the 2x2 / stride 2 window
    }

    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t oh = h / 2, ow = w / 2;
    uint32_t w_al = (w + 15) / 16 * 16;

    // row pairs per load: two lines of w_al floats each
    uint32_t pr_blk = IN_BUF_BYTES / (2 * w_al * sizeof(float));
    if (pr_blk == 0) {
        pr_blk = 1;
    }
    if (pr_blk > oh) {
        pr_blk = oh;
    }

    uint32_t plane_total = n * c;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk_num = plat.GetCoreNumAiv();
    if (blk_num > plane_total) {
        blk_num = plane_total;
    }
    if (blk_num == 0) {
        blk_num = 1;
    }
    uint32_t planes_per_core = (plane_total + blk_num - 1) / blk_num;
    blk_num = (plane_total + planes_per_core - 1) / planes_per_core;

    ConvTranspose2dMaxPoolHardtanhMeanTanhCustomTilingData tiling;
    tiling.set_h(h);
    tiling.set_w(w);
    tiling.set_oh(oh);
    tiling.set_ow(ow);
    tiling.set_w_al(w_al);
    tiling.set_pr_blk(pr_blk);
    tiling.set_plane_total(plane_total);
    tiling.set_planes_per_core(planes_per_core);
    tiling.set_ht_min(ht_min);
    tiling.set_ht_max(ht_max);

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
    const gert::Shape *xs = context->GetInputShape(0);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, 1);
    ys->SetDim(3, 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ConvTranspose2dMaxPoolHardtanhMeanTanhCustom : public OpDef {
public:
    explicit ConvTranspose2dMaxPoolHardtanhMeanTanhCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("maxpool_kernel_size").AttrType(OPTIONAL).Int(2);
        this->Attr("maxpool_stride").AttrType(OPTIONAL).Int(2);
        this->Attr("hardtanh_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("hardtanh_max").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose2dMaxPoolHardtanhMeanTanhCustom);
} // namespace ops
