#include "conv3x3_relu_pool_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

ge::graphStatus Conv3x3ReluPoolTiling(gert::TilingContext *context)
{
    auto x = context->GetInputShape(0)->GetStorageShape();     // [N, Cin, H, W]
    auto w = context->GetInputShape(1)->GetStorageShape();     // [Cout, Cin, 3, 3]
    if (x.GetDimNum() != 4 || w.GetDimNum() != 4 || w.GetDim(2) != 3 || w.GetDim(3) != 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = x.GetDim(0), cin = x.GetDim(1), h = x.GetDim(2), wd = x.GetDim(3);
    uint32_t cout = w.GetDim(0);
    bool pool = false;
    if (auto attrs = context->GetAttrs(); attrs != nullptr && attrs->GetAttrPointer<bool>(0) != nullptr) {
        pool = *attrs->GetAttrPointer<bool>(0);
    }
    if (pool && ((h & 1U) || (wd & 1U))) {
        return ge::GRAPH_FAILED;          // 2x2 pooling needs even spatial sizes
    }

    bool half = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t elem = half ? 2 : 4;

    // aim for ~1K output pixels per block; keep an even row count so pool windows never straddle blocks
    uint32_t rows = 1024 / wd;
    rows = rows == 0 ? 1 : rows;
    if (pool) {
        rows = rows < 2 ? 2 : rows & ~1U;
    }
    rows = rows > h ? h : rows;
    uint32_t cols = rows * wd;
    uint32_t kdim = cin * 9;

    Conv3x3ReluPoolTilingData td;
    td.set_batch(n);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_height(h);
    td.set_width(wd);
    td.set_withPool(pool ? 1 : 0);
    td.set_blockRows(rows);
    td.set_blocksPerImage((h + rows - 1) / rows);
    // pitch a multiple of 64 bytes so that half a row stays 32-byte aligned after the column gather
    td.set_rowPitch(AlignUp(wd, 64 / elem));
    td.set_colSlice(static_cast<uint64_t>(kdim) * cols);
    td.set_convSlice(pool ? static_cast<uint64_t>(cout) * cols : 0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto mmDt = half ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
    matmul_tiling::MatmulApiTiling api(plat);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmDt, false);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmDt, false);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, mmDt);
    api.SetOrgShape(cout, cols, kdim);
    api.SetShape(cout, cols, kdim);
    api.SetBias(false);
    api.SetBufferSpace(-1, -1, -1);
    if (api.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t aic = plat.GetCoreNumAic();
    context->SetBlockDim(aic);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    uint64_t perWorker = (td.get_colSlice() + td.get_convSlice()) * elem;
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(perWorker) * aic * 2 + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}
