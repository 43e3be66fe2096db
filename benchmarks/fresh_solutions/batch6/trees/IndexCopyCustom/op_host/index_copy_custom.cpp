// host side: tiling, shape inference, op definition
#include "index_copy_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto is = ctx->GetInputShape(1)->GetStorageShape();
    uint32_t rows = xs.GetDim(0);
    uint32_t cols = rows ? static_cast<uint32_t>(xs.GetShapeSize() / rows) : 0;
    uint32_t nIdx = static_cast<uint32_t>(is.GetShapeSize());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    uint32_t rpc = (rows + cores - 1) / cores;
    if (rpc == 0) rpc = 1;
    uint32_t used = (rows + rpc - 1) / rpc;
    if (used == 0) used = 1;
    uint32_t chunk = 16384;
    uint32_t blk = nIdx < 4096 ? (nIdx + 3) / 4 * 4 : 4096;
    if (blk == 0) blk = 4;

    IndexCopyCustomTilingData t;
    t.set_rows(rows);
    t.set_cols(cols);
    t.set_nIdx(nIdx);
    t.set_rowsPerCore(rpc);
    t.set_chunk(chunk);
    t.set_idxBlk(blk);
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
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class IndexCopyCustom : public OpDef {
public:
    explicit IndexCopyCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("src").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(IndexCopyCustom);
}
