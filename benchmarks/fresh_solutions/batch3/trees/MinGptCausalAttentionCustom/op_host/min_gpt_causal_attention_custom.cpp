#include <cmath>
#include "min_gpt_causal_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
using matmul_tiling::CubeFormat;
using matmul_tiling::TPosition;
using MmDType = matmul_tiling::DataType;

static bool BuildTiling(const platform_ascendc::PlatformAscendC& plat, TCubeTiling& out,
                        int32_t m, int32_t n, int32_t k, bool transB, bool withBias)
{
    matmul_tiling::MatmulApiTiling t(plat);
    t.SetAType(TPosition::GM, CubeFormat::ND, MmDType::DT_FLOAT, false);
    t.SetBType(TPosition::GM, CubeFormat::ND, MmDType::DT_FLOAT, transB);
    t.SetCType(TPosition::GM, CubeFormat::ND, MmDType::DT_FLOAT);
    if (withBias) {
        t.SetBiasType(TPosition::GM, CubeFormat::ND, MmDType::DT_FLOAT);
    }
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, k);
    t.SetBias(withBias);
    t.SetBufferSpace(-1, -1, -1);
    return t.GetTiling(out) != -1;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t B = xs.GetDim(0);
    uint32_t T = xs.GetDim(1);
    uint32_t C = xs.GetDim(2);
    uint32_t nh = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    if (nh == 0 || C % nh != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hd = C / nh;

    uint32_t coreNum = plat.GetCoreNumAic();
    uint32_t rows = B * T;
    uint32_t projRows = (rows + coreNum - 1) / coreNum;

    MinGptCausalAttentionCustomTilingData td;
    td.set_batch(B);
    td.set_seqLen(T);
    td.set_embd(C);
    td.set_nHead(nh);
    td.set_headDim(hd);
    td.set_usedCoreNum(coreNum);
    td.set_projRowsPerCore(projRows);
    td.set_scale(1.0f / std::sqrt(static_cast<float>(hd)));

    if (!BuildTiling(plat, td.qkvTiling, T, hd, C, true, true) ||
        !BuildTiling(plat, td.scoreTiling, T, T, hd, true, false) ||
        !BuildTiling(plat, td.pvTiling, T, hd, T, false, false) ||
        !BuildTiling(plat, td.projTiling, projRows, C, C, true, true)) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(coreNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // q,k,v (B,nh,T,hd) + merged heads (B,T,C) + per-core score scratch T*T + head out T*hd
    size_t user = sizeof(float) * ((size_t)4 * B * T * C + (size_t)coreNum * T * T + (size_t)coreNum * T * hd);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = user + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MinGptCausalAttentionCustom : public OpDef {
public:
    explicit MinGptCausalAttentionCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("attn_weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("attn_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("proj_weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("proj_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("n_head").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MinGptCausalAttentionCustom);
}
