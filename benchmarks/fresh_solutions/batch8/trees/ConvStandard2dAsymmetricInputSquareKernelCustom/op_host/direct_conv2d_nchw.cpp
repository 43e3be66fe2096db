#include "direct_conv2d_nchw_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE_W = 256;
constexpr uint64_t UB_SLACK = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetOriginShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    const uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    if (ws.GetDim(1) != cin || ws.GetDim(3) != k || h < k || w < k) {
        return ge::GRAPH_FAILED;
    }
    // stride 1, no padding, no dilation
    const uint32_t oh = h - k + 1;
    const uint32_t ow = w - k + 1;
    const uint32_t taps = k * k;
    const uint32_t tapStride = (taps + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t cores = plat.GetCoreNumAiv();

    // UB: weight slice (double buffered) + per column: Cout accumulators + 2 * K*K shifted input rows.
    const uint64_t wSliceBytes = 2ULL * cout * tapStride * sizeof(float);
    if (wSliceBytes + UB_SLACK >= ub) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t perCol = (static_cast<uint64_t>(cout) + 2ULL * taps) * sizeof(float);
    uint32_t tileW = static_cast<uint32_t>((ub - wSliceBytes - UB_SLACK) / perCol) / 8 * 8;
    if (tileW > MAX_TILE_W) {
        tileW = MAX_TILE_W;
    }
    const uint32_t owAligned = (ow + 7) / 8 * 8;
    if (tileW > owAligned) {
        tileW = owAligned;
    }
    if (tileW == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t wTiles = (ow + tileW - 1) / tileW;
    const uint32_t items = n * oh * wTiles;

    DirectConv2dNchwTilingData td;
    td.set_batch(n);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_inH(h);
    td.set_inW(w);
    td.set_ksize(k);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_tileW(tileW);
    td.set_wTiles(wTiles);
    td.set_tapStride(tapStride);
    td.set_totalItems(items);
    context->SetBlockDim(items < cores ? items : cores);
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
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    gert::Shape *y = context->GetOutputShape(0);
    const int64_t k = w->GetDim(2);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - k + 1);
    y->SetDim(3, x->GetDim(3) - k + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class DirectConv2dNchwCustom : public OpDef {
public:
    explicit DirectConv2dNchwCustom(const char *name) : OpDef(name)
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
OP_ADD(DirectConv2dNchwCustom);
} // namespace ops
