#include "conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// Rough UB budget for the two depth slices of one pass (double buffered) plus scratch.
constexpr uint32_t UB_IN_BUDGET = 32 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dScalingAvgPoolBiasAddScalingCustomTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1);
    uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    // AvgPool3d(kernel_size=2): stride 2, no padding, floor mode
    uint32_t od = d / 2, oh = h / 2, ow = w / 2;

    uint32_t alignW = (w + 15) / 16 * 16;
    // one pass holds 2 depth slices x (2 * ohTile) rows x alignW floats
    uint32_t ohTile = UB_IN_BUDGET / (2 * 2 * alignW * sizeof(float));
    if (ohTile == 0) {
        ohTile = 1;
    }
    if (ohTile > oh) {
        ohTile = oh;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t totalTasks = n * c * od;
    if (cores > totalTasks) {
        cores = totalTasks;
    }
    if (cores == 0) {
        cores = 1;
    }

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float s1 = *attrs->GetAttrPointer<float>(0);
    float s2 = *attrs->GetAttrPointer<float>(1);

    td.set_channels(c);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_alignW(alignW);
    td.set_ohTile(ohTile);
    td.set_totalTasks(totalTasks);
    td.set_tasksPerCore(totalTasks / cores);
    td.set_tailCores(totalTasks % cores);
    td.set_mulFactor(s1 * s2 / 8.0f);
    td.set_scale2(s2);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) / 2);
    ys->SetDim(3, xs->GetDim(3) / 2);
    ys->SetDim(4, xs->GetDim(4) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dScalingAvgPoolBiasAddScalingCustom : public OpDef {
public:
    explicit ConvTranspose3dScalingAvgPoolBiasAddScalingCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale1").AttrType(OPTIONAL).Float(0.5f);
        this->Attr("scale2").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dScalingAvgPoolBiasAddScalingCustom);
}
