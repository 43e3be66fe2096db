#include "symmetric_product_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// tiling keys: operand orientation of B as seen by the cube unit
constexpr uint64_t KEY_B_ROW_MAJOR = 1;
constexpr uint64_t KEY_B_TRANSPOSED = 2;

ge::graphStatus SymmetricProductMatmulTilingFunc(gert::TilingContext *context)
{
    SymmetricProductMatmulTiling td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const auto &as = context->GetInputShape(0)->GetStorageShape();
    const auto &bs = context->GetInputShape(1)->GetStorageShape();
    if (as.GetDimNum() != 2 || bs.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    int64_t n = as.GetDim(0);
    if (as.GetDim(1) != n || bs.GetDim(0) != n || bs.GetDim(1) != n) {
        return ge::GRAPH_FAILED;
    }

    bool useSymmetry = true;
    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetAttrPointer<bool>(0) != nullptr) {
        useSymmetry = *attrs->GetAttrPointer<bool>(0);
    }

    auto dt = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16
                                                                       : matmul_tiling::DataType::DT_FLOAT;
    matmul_tiling::MultiCoreMatmulTiling cube(plat);
    cube.SetDim(plat.GetCoreNumAiv());
    cube.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, false);
    // With B symmetric, reading it "transposed" yields the same matrix, but makes both
    // operands K-contiguous, which is the friendlier load pattern for the ND->NZ path.
    cube.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, useSymmetry);
    cube.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    cube.SetShape(n, n, n);
    cube.SetOrgShape(n, n, n);
    cube.SetBias(false);
    cube.SetBufferSpace(-1, -1, -1);
    if (cube.GetTiling(td.cube) == -1) {
        return ge::GRAPH_FAILED;
    }

    td.set_dim(static_cast<uint32_t>(n));
    td.set_bAsTransposed(useSymmetry ? 1 : 0);
    context->SetTilingKey(useSymmetry ? KEY_B_TRANSPOSED : KEY_B_ROW_MAJOR);
    context->SetBlockDim(plat.GetCoreNumAic());
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
