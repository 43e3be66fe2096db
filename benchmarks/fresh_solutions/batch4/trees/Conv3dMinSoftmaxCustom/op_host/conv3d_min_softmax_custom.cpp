// host side: tiling, shape inference, op registration
#include "conv3d_min_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *ctx)
{
    Conv3dMinSoftmaxCustomTilingData t;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    if (s.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = s.GetDim(0), c = s.GetDim(1), d = s.GetDim(2);
    uint32_t hw = s.GetDim(3) * s.GetDim(4);
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t tl = static_cast<uint32_t>((ub - 8192) / ((2 * d + c + 4) * sizeof(float))) / 8 * 8;
    uint32_t hwa = (hw + 7) / 8 * 8;
    if (tl > hwa) tl = hwa;
    if (tl > 2048) tl = 2048;
    if (tl == 0) return ge::GRAPH_FAILED;
    uint32_t tpi = (hw + tl - 1) / tl;
    uint32_t tot = n * tpi;
    t.set_n(n);
    t.set_c(c);
    t.set_d(d);
    t.set_hw(hw);
    t.set_tileLen(tl);
    t.set_tilesPerImg(tpi);
    t.set_totalTiles(tot);
    ctx->SetBlockDim(tot < cores ? tot : cores);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *ctx)
{
    const gert::Shape *x = ctx->GetInputShape(0);
    gert::Shape *y = ctx->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, x->GetDim(1));
    y->SetDim(2, x->GetDim(3));
    y->SetDim(3, x->GetDim(4));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Conv3dMinSoftmaxCustom : public OpDef {
public:
    explicit Conv3dMinSoftmaxCustom(const char *name) : OpDef(name)
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
OP_ADD(Conv3dMinSoftmaxCustom);
}
