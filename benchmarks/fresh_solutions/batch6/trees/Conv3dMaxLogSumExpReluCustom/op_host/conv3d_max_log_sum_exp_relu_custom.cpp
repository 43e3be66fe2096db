#include "conv3d_max_log_sum_exp_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_BUDGET = 160 * 1024;   // leave some room for the framework

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    if (xs.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t od = d / 2, oh = h / 2, ow = w / 2;
    // 16-float alignment keeps the pooled rows (w_al / 2) 32B aligned
    uint32_t w_al = (w + 15) / 16 * 16;
    uint32_t pw = w_al / 2;

    // fixed part: pooled rows for all channels + reduction scratch + output rows
    uint32_t fixed = (c * pw + 2 * pw + 2 * pw) * sizeof(float) + 256;
    // per channel in a chunk: 4 slabs x 2 buffers + odd-lane scratch
    uint32_t per_ch = (4 * 2 * w_al + w_al / 2) * sizeof(float);
    uint32_t ch_blk = fixed < UB_BUDGET ? (UB_BUDGET - fixed) / per_ch : 1;
    ch_blk = ch_blk / 4 * 4;   // keeps chunk length a multiple of 64 lanes
    if (ch_blk == 0) {
        ch_blk = 4;
    }
    if (ch_blk > c) {
        ch_blk = c;
    }

    uint32_t task_total = n * od * oh;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blk_num = plat.GetCoreNumAiv();
    if (blk_num > task_total) {
        blk_num = task_total;
    }
    if (blk_num == 0) {
        blk_num = 1;
    }
    uint32_t task_per_core = (task_total + blk_num - 1) / blk_num;
    blk_num = (task_total + task_per_core - 1) / task_per_core;

    Conv3dMaxLogSumExpReluCustomTilingData tiling;
    tiling.set_n(n);
    tiling.set_c(c);
    tiling.set_d(d);
    tiling.set_h(h);
    tiling.set_w(w);
    tiling.set_od(od);
    tiling.set_oh(oh);
    tiling.set_ow(ow);
    tiling.set_w_al(w_al);
    tiling.set_ch_blk(ch_blk);
    tiling.set_task_total(task_total);
    tiling.set_task_per_core(task_per_core);

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
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, 1);
    ys->SetDim(2, xs->GetDim(2) / 2);
    ys->SetDim(3, xs->GetDim(3) / 2);
    ys->SetDim(4, xs->GetDim(4) / 2);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class Conv3dMaxLogSumExpReluCustom : public OpDef {
public:
    explicit Conv3dMaxLogSumExpReluCustom(const char *name) : OpDef(name)
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

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv3dMaxLogSumExpReluCustom);
} // namespace ops
