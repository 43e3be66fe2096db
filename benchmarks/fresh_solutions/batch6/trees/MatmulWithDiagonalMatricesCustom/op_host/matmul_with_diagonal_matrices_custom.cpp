// host side: tiling, shape inference, op definition
#include "matmul_with_diagonal_matrices_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_ELEMS = 8192;
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto bs = ctx->GetInputShape(1)->GetStorageShape();
    uint32_t n = bs.GetDim(0), m = bs.GetDim(1);
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t rpc = (n + cores - 1) / cores;
    uint32_t used = (n + rpc - 1) / rpc;
    uint32_t mAl = (m + 7) / 8 * 8;
    uint32_t ct = mAl <= UB_ELEMS ? mAl : UB_ELEMS;
    uint32_t rpt = mAl <= UB_ELEMS ? UB_ELEMS / mAl : 1;
    if (rpt > rpc) rpt = rpc;
    if (rpt == 0) rpt = 1;

    MatmulWithDiagonalMatricesCustomTilingData t;
    t.set_n(n);
    t.set_m(m);
    t.set_rowsPerCore(rpc);
    t.set_rowsPerTile(rpt);
    t.set_colTile(ct);
    ctx->SetBlockDim(used);
    t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(1));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulWithDiagonalMatricesCustom : public OpDef {
public:
    explicit MatmulWithDiagonalMatricesCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulWithDiagonalMatricesCustom);
}
