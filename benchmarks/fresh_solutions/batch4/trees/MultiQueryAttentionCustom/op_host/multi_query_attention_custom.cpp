// host side: tiling, shape inference, op registration
#include <cmath>
#include "multi_query_attention_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
constexpr uint32_t BLK = 128;

static ge::graphStatus TilingFunc(gert::TilingContext *ctx)
{
    auto qs = ctx->GetInputShape(0)->GetStorageShape();
    auto ks = ctx->GetInputShape(1)->GetStorageShape();
    uint32_t b = qs.GetDim(0), rows = qs.GetDim(1), hd = qs.GetDim(2);
    uint32_t kv = ks.GetDim(1);
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    uint32_t br = rows < BLK ? rows : BLK;
    uint32_t bpb = (rows + br - 1) / br;
    uint32_t jobs = b * bpb;
    uint32_t workers = jobs < aiv ? jobs : aiv;

    MultiQueryAttentionCustomTilingData t;
    MatmulApiTiling t1(plat);
    t1.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    t1.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    t1.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t1.SetShape(br, kv, hd);
    t1.SetOrgShape(br, kv, hd);
    t1.SetBias(false);
    t1.SetBufferSpace(-1, -1, -1);
    if (t1.GetTiling(t.qk) == -1) return ge::GRAPH_FAILED;

    MatmulApiTiling t2(plat);
    t2.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    t2.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    t2.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t2.SetShape(br, hd, kv);
    t2.SetOrgShape(br, hd, kv);
    t2.SetBias(false);
    t2.SetBufferSpace(-1, -1, -1);
    if (t2.GetTiling(t.pv) == -1) return ge::GRAPH_FAILED;

    t.set_batch(b);
    t.set_rows(rows);
    t.set_kvLen(kv);
    t.set_headDim(hd);
    t.set_blkRows(br);
    t.set_blksPerBatch(bpb);
    t.set_workers(workers);
    t.set_scale(1.0f / std::sqrt(static_cast<float>(hd)));
    ctx->SetBlockDim((workers + 1) / 2);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t *ws = ctx->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + (size_t)workers * br * kv * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class MultiQueryAttentionCustom : public OpDef {
public:
    explicit MultiQueryAttentionCustom(const char *name) : OpDef(name)
    {
        this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("k").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MultiQueryAttentionCustom);
}
