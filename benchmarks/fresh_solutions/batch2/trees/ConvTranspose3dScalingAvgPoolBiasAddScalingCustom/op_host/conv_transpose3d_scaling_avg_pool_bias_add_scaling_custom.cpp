#include "conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// Rough UB budget (bytes) for the per-tile buffers; the rest is kept for the framework.
constexpr uint32_t UB_BUDGET = 160 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dScalingAvgPoolBiasAddScalingCustomTilingData td;

    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t od = d / 2, oh = h / 2, ow = w / 2;

    const float* s1 = context->GetAttrs()->GetAttrPointer<float>(0);
    const float* s2 = context->GetAttrs()->GetAttrPointer<float>(1);

    uint32_t wAlign = (w + 15) / 16 * 16;
    // per pooled row: 2 depth slices * 2 input rows (x2 for double buffering) + h-sum row + 2 half rows + out row
    uint32_t bytesPerRow = (2 * 2 * 2 * wAlign + wAlign + wAlign + 2 * (wAlign / 2)) * sizeof(float);
    uint32_t rows = UB_BUDGET / bytesPerRow;
    if (rows == 0) {
        return ge::GRAPH_FAILED;
    }
    if (rows > oh) {
        rows = oh;
    }
    if (rows > 255) {
        rows = 255;   // keeps GatherMask repeat count in range
    }
    uint32_t tiles = (oh + rows - 1) / rows;
    uint32_t units = n * c * od * tiles;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t per = (units + cores - 1) / cores;
    if (per == 0) {
        per = 1;
    }
    uint32_t blockDim = (units + per - 1) / per;

    td.set_channels(c);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_wAlign(wAlign);
    td.set_rowsPerTile(rows);
    td.set_tilesPerSlice(tiles);
    td.set_totalUnits(units);
    td.set_unitsPerCore(per);
    td.set_poolScale((*s1) * (*s2) * 0.125f);
    td.set_scale2(*s2);

    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);
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
        this->Attr("scale1").Float();
        this->Attr("scale2").Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose3dScalingAvgPoolBiasAddScalingCustom);
}
