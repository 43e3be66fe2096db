#include "matmul_with_large_k_dimension_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
// K slices are kept multiples of this so every core starts on an aligned row of B.
constexpr uint32_t K_ALIGN = 256;

static int32_t fill_cube_tiling(const platform_ascendc::PlatformAscendC &plat, uint32_t m, uint32_t n,
                                uint32_t k_slice, uint32_t k_full, TCubeTiling &out)
{
    MatmulApiTiling mm(plat);
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBias(false);
    mm.SetShape(m, n, k_slice);
    // A is (m, k_full) and B is (k_full, n) in memory: leading dims come from the full K.
    mm.SetOrgShape(m, n, k_full);
    mm.SetBufferSpace(-1, -1, -1);
    return mm.GetTiling(out);
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::StorageShape *a_shape = context->GetInputShape(0);
    const gert::StorageShape *b_shape = context->GetInputShape(1);
    uint32_t m = static_cast<uint32_t>(a_shape->GetStorageShape().GetDim(0));
    uint32_t k = static_cast<uint32_t>(a_shape->GetStorageShape().GetDim(1));
    uint32_t n = static_cast<uint32_t>(b_shape->GetStorageShape().GetDim(1));

    uint32_t core_num = plat.GetCoreNumAic();
    if (core_num == 0) {
        core_num = 1;
    }
    // Even share of K per core, rounded up to K_ALIGN.
    uint32_t k_per = (k + core_num - 1) / core_num;
    k_per = (k_per + K_ALIGN - 1) / K_ALIGN * K_ALIGN;
    if (k_per > k) {
        k_per = k;
    }
    uint32_t blk_num = (k + k_per - 1) / k_per;
    uint32_t k_tail = k - (blk_num - 1) * k_per;

    MatmulWithLargeKDimensionCustomTilingData tiling;
    tiling.set_m(m);
    tiling.set_n(n);
    tiling.set_k(k);
    tiling.set_k_per(k_per);
    tiling.set_k_tail(k_tail);
    tiling.set_blk_num(blk_num);
    if (fill_cube_tiling(plat, m, n, k_per, k, tiling.mm_tiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    if (fill_cube_tiling(plat, m, n, k_tail, k, tiling.mm_tiling_tail) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(blk_num);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // matmul high-level API needs the system workspace
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *a_shape = context->GetInputShape(0);
    const gert::Shape *b_shape = context->GetInputShape(1);
    gert::Shape *c_shape = context->GetOutputShape(0);
    c_shape->SetDimNum(2);
    c_shape->SetDim(0, a_shape->GetDim(0));
    c_shape->SetDim(1, b_shape->GetDim(1));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
} // namespace ge

namespace ops {
class MatmulWithLargeKDimensionCustom : public OpDef {
public:
    explicit MatmulWithLargeKDimensionCustom(const char *name) : OpDef(name)
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

OP_ADD(MatmulWithLargeKDimensionCustom);
} // namespace ops
