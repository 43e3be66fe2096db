#include "volumetric_conv_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TARGET_COLS = 1024;      // output positions per GEMM block
constexpr uint64_t MAX_COL_BYTES = 4u << 20;  // per-core im2col workspace cap
}

ge::graphStatus VolumetricConvTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(1)) {
        return ge::GRAPH_FAILED;   // groups other than 1 are not handled here
    }
    const auto *attrs = context->GetAttrs();
    uint32_t stride = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t dil = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    if (stride == 0 || dil == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), d = xs.GetDim(2), h = xs.GetDim(3), w = xs.GetDim(4);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    int64_t span = static_cast<int64_t>(dil) * (k - 1) + 1;
    int64_t od = (static_cast<int64_t>(d) + 2 * pad - span) / stride + 1;
    int64_t oh = (static_cast<int64_t>(h) + 2 * pad - span) / stride + 1;
    int64_t ow = (static_cast<int64_t>(w) + 2 * pad - span) / stride + 1;
    if (od <= 0 || oh <= 0 || ow <= 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t kLen = cin * k * k * k;

    // column block = whole output lines along W
    uint32_t lines = static_cast<uint32_t>(od * oh);
    uint32_t rows = TARGET_COLS / static_cast<uint32_t>(ow);
    rows = rows == 0 ? 1 : rows;
    while (rows > 1 && static_cast<uint64_t>(rows) * ow * kLen * 4 > MAX_COL_BYTES) {
        --rows;
    }
    rows = rows > lines ? lines : rows;
    uint32_t blocks = (lines + rows - 1) / rows;
    uint32_t cols = rows * static_cast<uint32_t>(ow);
    uint32_t spatial = static_cast<uint32_t>(od * oh * ow);

    uint32_t lineOff = (pad + 7) / 8 * 8;
    lineOff = lineOff == 0 ? 8 : lineOff;
    uint32_t lineLen = (lineOff + w + pad + static_cast<uint32_t>(span) * stride + 7) / 8 * 8;

    VolumetricConvTilingData td;
    matmul_tiling::MatmulApiTiling mm(plat);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBias(false);
    mm.SetShape(cout, cols, kLen);
    // A: weight [Cout, K]; B: im2col^T [K, cols]; C: y[n] rows of length `spatial`
    mm.SetOrgShape(cout, cols, kLen, kLen, spatial);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t cores = plat.GetCoreNumAic();
    td.set_batch(n);
    td.set_cin(cin);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_cout(cout);
    td.set_k(k);
    td.set_stride(stride);
    td.set_pad(pad);
    td.set_dil(dil);
    td.set_outD(static_cast<uint32_t>(od));
    td.set_outH(static_cast<uint32_t>(oh));
    td.set_outW(static_cast<uint32_t>(ow));
    td.set_reduceLen(kLen);
    td.set_rowsPerBlock(rows);
    td.set_blocksPerSample(blocks);
    td.set_lineLen(lineLen);
    td.set_lineOff(lineOff);
    td.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);
    td.set_coreNum(cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t colBytes = static_cast<size_t>(cores) * kLen * cols * sizeof(float);
    context->GetWorkspaceSizes(1)[0] = colBytes + plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
