#include "tensor_dot_last_axis_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
ge::graphStatus TensorDotLastAxisTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &bShape = context->GetInputShape(1)->GetStorageShape();
    size_t rank = aShape.GetDimNum();
    if (rank < 2 || bShape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    int64_t k = aShape.GetDim(rank - 1);
    if (k != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    int64_t m = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        m *= aShape.GetDim(i);
    }
    int64_t n = bShape.GetDim(1);

    DataType inType = DataType::DT_FLOAT;
    if (context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16) {
        inType = DataType::DT_FLOAT16;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cubeCores = plat.GetCoreNumAic();

    // Leading axes are folded into M: the whole op is one (M x K) * (K x N) GEMM
    // split over all cube cores.
    MultiCoreMatmulTiling api(plat);
    api.SetDim(cubeCores);
    api.SetAType(TPosition::GM, CubeFormat::ND, inType, false);
    api.SetBType(TPosition::GM, CubeFormat::ND, inType, false);
    api.SetCType(TPosition::GM, CubeFormat::ND, inType);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.EnableBias(false);
    api.SetBufferSpace(-1, -1, -1);

    TensorDotLastAxisTilingData tiling;
    if (api.GetTiling(tiling.mm) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_rows(static_cast<uint32_t>(m));
    tiling.set_contract(static_cast<uint32_t>(k));
    tiling.set_cols(static_cast<uint32_t>(n));

    // launch as many cores as there are (singleCoreM x singleCoreN) tiles
    uint32_t mBlocks = (m + tiling.mm.get_singleCoreM() - 1) / tiling.mm.get_singleCoreM();
    uint32_t nBlocks = (n + tiling.mm.get_singleCoreN() - 1) / tiling.mm.get_singleCoreN();
    uint32_t used = mBlocks * nBlocks;
    context->SetBlockDim(used < cubeCores ? used : cubeCores);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
