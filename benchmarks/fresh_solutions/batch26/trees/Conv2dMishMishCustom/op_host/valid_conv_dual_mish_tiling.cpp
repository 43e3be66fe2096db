#include "valid_conv_dual_mish_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TARGET_COLS = 1024;   // output pixels per GEMM block
constexpr uint32_t EPI_TILE = 4096;
}

ge::graphStatus ValidConvDualMishTiling(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, H, W]
    auto wShape = context->GetInputShape(1)->GetStorageShape();   // [Cout, Cin, KH, KW]
    if (xShape.GetDimNum() != 4 || wShape.GetDimNum() != 4 || xShape.GetDim(1) != wShape.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xShape.GetDim(0), cin = xShape.GetDim(1), h = xShape.GetDim(2), w = xShape.GetDim(3);
    uint32_t cout = wShape.GetDim(0), kh = wShape.GetDim(2), kw = wShape.GetDim(3);
    if (h < kh || w < kw) {
        return ge::GRAPH_FAILED;
    }
    uint32_t ho = h - kh + 1, wo = w - kw + 1;

    uint32_t rows = TARGET_COLS / wo;
    if (rows == 0) rows = 1;
    if (rows > ho) rows = ho;
    uint32_t cols = rows * wo;
    uint32_t kdim = cin * kh * kw;

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    bool half = dt == ge::DT_FLOAT16;
    auto mmType = half ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
    uint32_t elem = half ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    ValidConvDualMishTilingData td;
    td.set_n(n); td.set_cin(cin); td.set_hin(h); td.set_win(w);
    td.set_cout(cout); td.set_kh(kh); td.set_kw(kw);
    td.set_hout(ho); td.set_wout(wo);
    td.set_rowsPerBlock(rows);
    td.set_blocksPerImage((ho + rows - 1) / rows);
    td.set_epiTile(EPI_TILE);
    td.set_colElemsPerWorker(static_cast<uint64_t>(kdim) * cols);

    // out_block[Cout, cols] = W[Cout, K] x col[K, cols]; C rows are strided by Ho*Wo
    matmul_tiling::MatmulApiTiling api(plat);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType, false);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType, false);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmType);
    api.SetShape(cout, cols, kdim);
    api.SetOrgShape(cout, cols, kdim);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);
    if (api.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t aic = plat.GetCoreNumAic();
    context->SetBlockDim(aic);
    uint32_t workers = aic * 2;

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(workers) * kdim * cols * elem + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
