#include "scaled_avg_pool3d_bias_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Align8(uint32_t v) { return (v + 7) / 8 * 8; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    if (xs.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = xs.GetDim(0), c = xs.GetDim(1);
    const uint32_t d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    // kernel_size = stride = 2, no padding, floor mode
    const uint32_t od = d / 2, oh = h / 2, ow = w / 2;
    if (od == 0 || oh == 0 || ow == 0) {
        return ge::GRAPH_FAILED;
    }
    const float *s1 = context->GetAttrs()->GetFloat(0);
    const float *s2 = context->GetAttrs()->GetFloat(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t cores = plat.GetCoreNumAiv();

    // UB per output row r (floats):
    //   input  : 2 queue slots * 2 depth slices * 2 rows * W
    //   gather : 2 scratch rows of OW + gather offsets OW
    //   output : 2 queue slots * OW
    // plus the bias vector.
    const uint64_t budget = ub - Align8(c) * sizeof(float) - 4096;
    const uint64_t perRow = (8ULL * w + 5ULL * ow) * sizeof(float);
    uint32_t rows = static_cast<uint32_t>(budget / perRow);
    if (rows == 0) {
        return ge::GRAPH_FAILED;
    }
    // Keep every buffer a whole number of 32B blocks: shrink until 2*rows*W and rows*OW are ok
    // (the kernel rounds buffer sizes up, so just leave one row of slack).
    if (rows > 1) {
        rows -= 1;
    }
    if (rows > oh) {
        rows = oh;
    }

    ScaledAvgPool3dBiasTilingData tiling;
    tiling.set_channels(c);
    tiling.set_inD(d);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outD(od);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_planeCount(n * c * od);
    tiling.set_rowsPerChunk(rows);
    tiling.set_mulFactor(*s1 * *s2 * 0.125f);
    tiling.set_scaleOut(*s2);

    const uint32_t planes = n * c * od;
    context->SetBlockDim(planes < cores ? planes : cores);
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
    const gert::Shape *x = context->GetInputShape(0);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, x->GetDim(2) / 2);
    y->SetDim(3, x->GetDim(3) / 2);
    y->SetDim(4, x->GetDim(4) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class ScaledAvgPool3dBiasCustom : public OpDef {
public:
    explicit ScaledAvgPool3dBiasCustom(const char *name) : OpDef(name)
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
        this->Attr("scale_in").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("scale_out").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaledAvgPool3dBiasCustom);
} // namespace ops
