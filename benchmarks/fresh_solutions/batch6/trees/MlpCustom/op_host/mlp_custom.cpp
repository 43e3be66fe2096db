#include "mlp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();   // [M, K]
    const gert::Shape &ws = context->GetInputShape(1)->GetOriginShape();   // [N, K]
    int32_t m = xs.GetDim(0);
    int32_t k = xs.GetDim(1);
    int32_t n = ws.GetDim(0);
    if (ws.GetDim(1) != k) {
        return ge::GRAPH_FAILED;
    }
    const bool *relu_ptr = context->GetAttrs()->GetBool(0);
    uint32_t with_relu = (relu_ptr != nullptr && *relu_ptr) ? 1 : 0;

    uint32_t aic_num = plat.GetCoreNumAic();
    MultiCoreMatmulTiling mm_tiling(plat);
    mm_tiling.SetDim(aic_num);
    mm_tiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm_tiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm_tiling.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm_tiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm_tiling.SetShape(m, n, k);
    mm_tiling.SetOrgShape(m, n, k);
    mm_tiling.SetBias(true);
    mm_tiling.SetBufferSpace(-1, -1, -1);
    // keep the vector-side block small enough for the ReLU buffer in UB
    mm_tiling.SetFixSplit(128, 128, -1);

    MlpCustomTilingData tiling;
    if (mm_tiling.GetTiling(tiling.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_with_relu(with_relu);

    context->SetBlockDim(aic_num);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(2);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MlpCustom : public OpDef {
public:
    explicit MlpCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("with_relu").AttrType(OPTIONAL).Bool(true);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MlpCustom);
} // namespace ops
