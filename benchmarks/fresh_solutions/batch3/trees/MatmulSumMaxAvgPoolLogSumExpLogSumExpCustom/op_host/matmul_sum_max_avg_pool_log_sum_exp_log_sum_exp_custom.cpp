#include "matmul_sum_max_avg_pool_log_sum_exp_log_sum_exp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t M = xs.GetDim(0), K = xs.GetDim(1), N = ws.GetDim(0);
    uint32_t cores = plat.GetCoreNumAiv();

    MatmulSumMaxAvgPoolLogSumExpLogSumExpCustomTilingData td;
    td.set_M(M);
    td.set_K(K);
    td.set_N(N);
    uint32_t colChunk = AlignUp((K + cores - 1) / cores, 8);
    td.set_colChunk(colChunk);
    uint32_t rowBatch = (24 * 1024) / (colChunk * sizeof(float));
    if (rowBatch == 0) rowBatch = 1;
    if (rowBatch > 64) rowBatch = 64;
    td.set_rowBatch(rowBatch);
    uint32_t rowsPerCore = (M + cores - 1) / cores;
    if (rowsPerCore > 256) {   // kernel keeps per-core row results in a fixed UB slot
        return ge::GRAPH_FAILED;
    }
    td.set_rowsPerCore(rowsPerCore);
    td.set_kTile(K < 8192 ? AlignUp(K, 8) : 8192);
    td.set_coreNum(cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    // user ws: folded weight vector (K) + bias sum (padded to a 32B block)
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = (AlignUp(K, 8) + 8) * sizeof(float) + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(2);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulSumMaxAvgPoolLogSumExpLogSumExpCustom : public OpDef {
public:
    explicit MatmulSumMaxAvgPoolLogSumExpLogSumExpCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulSumMaxAvgPoolLogSumExpLogSumExpCustom);
}
