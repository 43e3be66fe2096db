// host side: tiling, shape inference, op definition
#include "conv_standard_3d_asymmetric_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t UB_BUDGET = 160 * 1024;
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto ws = ctx->GetInputShape(1)->GetStorageShape();
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3), d = xs.GetDim(4);
    uint32_t co = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t ho = h - k + 1, wo = w - k + 1;

    uint64_t wBytes = ((uint64_t)co * ci * k * k + 8) * sizeof(float);
    uint64_t slices = (uint64_t)ci * k * k + 2;
    uint64_t avail = UB_BUDGET > wBytes ? UB_BUDGET - wBytes : 0;
    uint32_t wc = static_cast<uint32_t>(avail / (slices * (d * sizeof(float) + 32)));
    if (wc == 0) wc = 1;
    if (wc > wo) wc = wo;
    uint32_t nc = (wo + wc - 1) / wc;
    uint32_t tasks = n * ho * nc;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t tpc = (tasks + cores - 1) / cores;
    uint32_t used = (tasks + tpc - 1) / tpc;

    ConvStandard3dAsymmetricInputSquareKernelCustomTilingData t;
    t.set_n(n);
    t.set_cin(ci);
    t.set_cout(co);
    t.set_h(h);
    t.set_w(w);
    t.set_d(d);
    t.set_k(k);
    t.set_ho(ho);
    t.set_wo(wo);
    t.set_wChunk(wc);
    t.set_nChunks(nc);
    t.set_tasks(tasks);
    t.set_tasksPerCore(tpc);
    ctx->SetBlockDim(used);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* wsz = ctx->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    const gert::Shape* w = ctx->GetInputShape(1);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    y->SetDim(4, x->GetDim(4) - w->GetDim(4) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard3dAsymmetricInputSquareKernelCustom : public OpDef {
public:
    explicit ConvStandard3dAsymmetricInputSquareKernelCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvStandard3dAsymmetricInputSquareKernelCustom);
}
