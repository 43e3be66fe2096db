#include "matmul_batch_norm_bias_add_divide_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 24 * 1024;   // one of five equally sized tile buffers

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto shp = context->GetInputShape(0)->GetStorageShape();
    uint32_t m_num = static_cast<uint32_t>(shp.GetDim(0));
    uint32_t n_num = static_cast<uint32_t>(shp.GetDim(1));

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float eps = *attrs->GetAttrPointer<float>(0);
    float div = *attrs->GetAttrPointer<float>(1);

    // split the feature axis; every core owns whole columns so no cross-core reduction
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t col_per = (n_num + cores - 1) / cores;
    col_per = (col_per + 7) / 8 * 8;
    if (col_per == 0) {
        col_per = 8;
    }
    uint32_t blk_num = (n_num + col_per - 1) / col_per;

    uint32_t row_tile = TILE_BYTES / (col_per * sizeof(float));
    if (row_tile == 0) {
        row_tile = 1;
    }
    if (row_tile > m_num) {
        row_tile = m_num;
    }

    MatmulBatchNormBiasAddDivideSwishCustomTilingData td;
    td.set_m_num(m_num);
    td.set_n_num(n_num);
    td.set_col_per(col_per);
    td.set_row_tile(row_tile);
    td.set_eps(eps);
    td.set_inv_div(1.0f / div);

    context->SetBlockDim(blk_num);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
class MatmulBatchNormBiasAddDivideSwishCustom : public OpDef {
public:
    explicit MatmulBatchNormBiasAddDivideSwishCustom(const char *name) : OpDef(name)
    {
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("bn_eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("divide_value").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulBatchNormBiasAddDivideSwishCustom);
} // namespace ops
