#include "net_vlad_with_ghost_clusters_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_K = 128;          // kernel keeps per-cluster scales in registers/stack
constexpr uint32_t TILE_BYTES = 16 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto v_shape = context->GetInputShape(0)->GetStorageShape();   // B x K x D
    uint32_t b_num = static_cast<uint32_t>(v_shape.GetDim(0));
    uint32_t k_num = static_cast<uint32_t>(v_shape.GetDim(1));
    uint32_t d_num = static_cast<uint32_t>(v_shape.GetDim(2));
    if (k_num > MAX_K || (d_num * sizeof(float)) % 32 != 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t blk_num = b_num < cores ? b_num : cores;
    if (blk_num == 0) {
        blk_num = 1;
    }
    uint32_t b_per = (b_num + blk_num - 1) / blk_num;
    blk_num = (b_num + b_per - 1) / b_per;

    uint32_t k_blk = TILE_BYTES / (d_num * sizeof(float));
    if (k_blk == 0) {
        k_blk = 1;
    }
    if (k_blk > k_num) {
        k_blk = k_num;
    }

    NetVladWithGhostClustersCustomTilingData tiling;
    tiling.set_b_num(b_num);
    tiling.set_k_num(k_num);
    tiling.set_d_num(d_num);
    tiling.set_blk_num(blk_num);
    tiling.set_b_per(b_per);
    tiling.set_k_blk(k_blk);
    tiling.set_eps(1e-12f);   // F.normalize default

    context->SetBlockDim(blk_num);
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class NetVladWithGhostClustersCustom : public OpDef {
public:
    explicit NetVladWithGhostClustersCustom(const char *name) : OpDef(name)
    {
        this->Input("vlad")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("a_sum")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("c2t")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(NetVladWithGhostClustersCustom);
} // namespace ops
