#include "standard_matrix_multiplication_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto a_shp = context->GetInputShape(0)->GetStorageShape();
    auto b_shp = context->GetInputShape(1)->GetStorageShape();
    int32_t m = static_cast<int32_t>(a_shp.GetDim(0));
    int32_t k = static_cast<int32_t>(a_shp.GetDim(1));
    int32_t n = static_cast<int32_t>(b_shp.GetDim(1));

    auto core_num = static_cast<int32_t>(plat.GetCoreNumAic());
    matmul_tiling::MultiCoreMatmulTiling tiler(plat);
    tiler.SetDim(core_num);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBias(false);
    tiler.SetShape(m, n, k);
    tiler.SetOrgShape(m, n, k);
    tiler.SetBufferSpace(-1, -1, -1);

    StandardMatrixMultiplicationCustomTilingData td;
    if (tiler.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    int32_t sc_m = td.mm.get_singleCoreM();
    int32_t sc_n = td.mm.get_singleCoreN();
    uint32_t m_blks = static_cast<uint32_t>((m + sc_m - 1) / sc_m);
    uint32_t n_blks = static_cast<uint32_t>((n + sc_n - 1) / sc_n);
    td.set_m_blks(m_blks);
    td.set_n_blks(n_blks);

    context->SetBlockDim(m_blks * n_blks);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *a = context->GetInputShape(0);
    const gert::Shape *b = context->GetInputShape(1);
    gert::Shape *c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class StandardMatrixMultiplicationCustom : public OpDef {
public:
    explicit StandardMatrixMultiplicationCustom(const char *name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(StandardMatrixMultiplicationCustom);
} // namespace ops
