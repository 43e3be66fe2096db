// host side: tiling, shape inference, op definition
#include "gemm_sigmoid_sum_log_sum_exp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
using namespace matmul_tiling;

static bool MakeMm(const platform_ascendc::PlatformAscendC& plat, TCubeTiling& out,
                   int32_t m, int32_t n, int32_t k, int32_t orgM)
{
    MatmulApiTiling t(plat);
    t.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    t.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    t.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetShape(m, n, k);
    t.SetOrgShape(orgM, n, k);
    t.SetBias(true);
    t.SetBufferSpace(-1, -1, -1);
    return t.GetTiling(out) != -1;
}

static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto w1s = ctx->GetInputShape(1)->GetStorageShape();
    auto w2s = ctx->GetInputShape(3)->GetStorageShape();
    uint32_t b = xs.GetDim(0), in = xs.GetDim(1), h = w1s.GetDim(0), o = w2s.GetDim(0);
    uint32_t cores = plat.GetCoreNumAic();
    if (cores == 0) cores = 1;
    uint32_t per = (b + cores - 1) / cores;
    per = (per + 15) / 16 * 16;
    uint32_t used = (b + per - 1) / per;

    GemmSigmoidSumLogSumExpCustomTilingData t;
    t.set_batch(b);
    t.set_inF(in);
    t.set_hidF(h);
    t.set_outF(o);
    t.set_rowsPerCore(per);
    t.set_vecTile(8192);
    if (!MakeMm(plat, t.mm1, per, h, in, b) || !MakeMm(plat, t.mm2, per, o, h, b)) {
        return ge::GRAPH_FAILED;
    }
    ctx->SetBlockDim(used);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)b * h * sizeof(float) + (size_t)b * o * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    const gert::Shape* x = ctx->GetInputShape(0);
    gert::Shape* y = ctx->GetOutputShape(0);
    y->SetDimNum(1);
    y->SetDim(0, x->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmSigmoidSumLogSumExpCustom : public OpDef {
public:
    explicit GemmSigmoidSumLogSumExpCustom(const char* name) : OpDef(name)
    {
        const char* ins[] = {"x", "w1", "b1", "w2", "b2"};
        for (auto n : ins) {
            this->Input(n).ParamType(REQUIRED).DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GemmSigmoidSumLogSumExpCustom);
}
