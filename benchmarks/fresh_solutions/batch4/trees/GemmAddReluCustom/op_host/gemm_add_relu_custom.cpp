#include "gemm_add_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
// Base block that is moved from L0C to UB for the ReLU epilogue.
// 64 x 128 floats = 32 KB per buffer, which leaves room for in/out queues.
constexpr int32_t BASE_M = 64;
constexpr int32_t BASE_N = 128;

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto x_shape = context->GetInputShape(0)->GetStorageShape();
    auto w_shape = context->GetInputShape(1)->GetStorageShape();
    int32_t m = static_cast<int32_t>(x_shape.GetDim(0));
    int32_t k = static_cast<int32_t>(x_shape.GetDim(1));
    int32_t n = static_cast<int32_t>(w_shape.GetDim(0));

    uint32_t aic = plat.GetCoreNumAic();
    matmul_tiling::MultiCoreMatmulTiling mm(plat);
    mm.SetDim(static_cast<int32_t>(aic));
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT, false);
    // weight is (N, K): multiply by its transpose
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT, true);
    // result block lands in UB for the epilogue
    mm.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND,
                matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT);
    mm.SetBias(true);
    mm.SetShape(m, n, k);
    mm.SetOrgShape(m, n, k);
    mm.SetFixSplit(BASE_M, BASE_N, -1);
    mm.SetBufferSpace(-1, -1, -1);

    GemmAddReluCustomTilingData tiling;
    if (mm.GetTiling(tiling.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t used = static_cast<uint32_t>(tiling.cube.get_usedCoreNum());
    tiling.set_blk_num(used);
    context->SetBlockDim(used);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x_shape = context->GetInputShape(0);
    const gert::Shape *w_shape = context->GetInputShape(1);
    gert::Shape *y_shape = context->GetOutputShape(0);
    y_shape->SetDimNum(2);
    y_shape->SetDim(0, x_shape->GetDim(0));
    y_shape->SetDim(1, w_shape->GetDim(0));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class GemmAddReluCustom : public OpDef {
public:
    explicit GemmAddReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmAddReluCustom);
} // namespace ops
