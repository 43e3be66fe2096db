#include "conv3d_softmax_max_pool_max_pool_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    Conv3dSoftmaxMaxPoolMaxPoolCustomTilingData tiling;
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    if (xs.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const int64_t *k_ptr = context->GetAttrs()->GetInt(0);
    uint32_t k = (k_ptr == nullptr) ? 2 : static_cast<uint32_t>(*k_ptr);
    uint32_t pk = k * k;

    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t od = d / pk, oh = h / pk, ow = w / pk;
    uint32_t row_total = n * od * oh;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t core_num = plat.GetCoreNumAiv();
    uint32_t blk_num = row_total < core_num ? row_total : core_num;
    if (blk_num == 0) {
        blk_num = 1;
    }
    uint32_t rows_per_core = (row_total + blk_num - 1) / blk_num;
    blk_num = (row_total + rows_per_core - 1) / rows_per_core;
    if (blk_num == 0) {
        blk_num = 1;
    }

    tiling.set_n(n);
    tiling.set_c(c);
    tiling.set_d(d);
    tiling.set_h(h);
    tiling.set_w(w);
    tiling.set_od(od);
    tiling.set_oh(oh);
    tiling.set_ow(ow);
    tiling.set_pk(pk);
    tiling.set_w_al(align_up(w, 8));
    tiling.set_ow_al(align_up(ow, 8));
    tiling.set_row_total(row_total);
    tiling.set_rows_per_core(rows_per_core);

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
    const int64_t *k_ptr = context->GetAttrs()->GetInt(0);
    int64_t k = (k_ptr == nullptr) ? 2 : *k_ptr;
    int64_t pk = k * k;
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) / pk);
    ys->SetDim(3, xs->GetDim(3) / pk);
    ys->SetDim(4, xs->GetDim(4) / pk);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Conv3dSoftmaxMaxPoolMaxPoolCustom : public OpDef {
public:
    explicit Conv3dSoftmaxMaxPoolMaxPoolCustom(const char *name) : OpDef(name)
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
        this->Attr("pool_kernel_size").AttrType(OPTIONAL).Int(2);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv3dSoftmaxMaxPoolMaxPoolCustom);
} // namespace ops
