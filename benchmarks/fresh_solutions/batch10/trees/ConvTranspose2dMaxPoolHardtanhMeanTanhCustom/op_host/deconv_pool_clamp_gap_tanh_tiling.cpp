#include "deconv_pool_clamp_gap_tanh_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FLOATS_PER_BLOCK = 8;          // 32 bytes / sizeof(float)
constexpr uint64_t ACC_UB_BUDGET = 144 * 1024;    // bytes reserved for row accumulators
constexpr uint32_t KEY_VECTOR = 1;                // stride 1: vector row engine
constexpr uint32_t KEY_SCALAR = 2;                // any other stride: scalar reference path

// attribute order must match the OpDef
enum AttrIdx : uint32_t { ATTR_STRIDE = 0, ATTR_PAD, ATTR_POOL_K, ATTR_POOL_S, ATTR_LO, ATTR_HI };
}  // namespace

ge::graphStatus DeconvPoolClampGapTanhTilingFunc(gert::TilingContext* context)
{
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::StorageShape* wShape = context->GetInputShape(1);
    if (xShape == nullptr || wShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const auto& xs = xShape->GetStorageShape();
    const auto& ws = wShape->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const int64_t stride = *attrs->GetAttrPointer<int64_t>(ATTR_STRIDE);
    const int64_t pad = *attrs->GetAttrPointer<int64_t>(ATTR_PAD);
    const int64_t poolK = *attrs->GetAttrPointer<int64_t>(ATTR_POOL_K);
    const int64_t poolS = *attrs->GetAttrPointer<int64_t>(ATTR_POOL_S);
    const float lo = *attrs->GetAttrPointer<float>(ATTR_LO);
    const float hi = *attrs->GetAttrPointer<float>(ATTR_HI);

    const uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    const uint32_t cin = static_cast<uint32_t>(xs.GetDim(1));
    const uint32_t h = static_cast<uint32_t>(xs.GetDim(2));
    const uint32_t w = static_cast<uint32_t>(xs.GetDim(3));
    const uint32_t cout = static_cast<uint32_t>(ws.GetDim(1));   // weight is [Cin, Cout, K, K]
    const uint32_t k = static_cast<uint32_t>(ws.GetDim(2));
    if (stride <= 0 || pad < 0 || poolK <= 0 || poolS <= 0 || static_cast<uint32_t>(ws.GetDim(0)) != cin) {
        return ge::GRAPH_FAILED;
    }

    const int64_t oh = (static_cast<int64_t>(h) - 1) * stride - 2 * pad + k;
    const int64_t ow = (static_cast<int64_t>(w) - 1) * stride - 2 * pad + k;
    if (oh < poolK || ow < poolK) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t poolH = static_cast<uint32_t>((oh - poolK) / poolS + 1);
    const uint32_t poolW = static_cast<uint32_t>((ow - poolK) / poolS + 1);
    const uint32_t rowAlign = (static_cast<uint32_t>(ow) + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK;

    // How many output channels can share one pass over the input taps.
    uint64_t perChannel = static_cast<uint64_t>(poolK) * rowAlign * sizeof(float);
    uint32_t coBlock = static_cast<uint32_t>(ACC_UB_BUDGET / perChannel);
    if (coBlock == 0) {
        return ge::GRAPH_FAILED;   // a single output row does not fit, not supported
    }
    coBlock = coBlock > cout ? cout : coBlock;

    // In the vector path the left zero fill of a tap row comes from DataCopyPad
    // leftPadding, which is limited to one 32-byte block.
    const bool vectorOk = (stride == 1) && (static_cast<int64_t>(k) - 1 - pad <= FLOATS_PER_BLOCK);
    context->SetTilingKey(vectorOk ? KEY_VECTOR : KEY_SCALAR);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    uint32_t used = n < cores ? n : cores;
    used = used == 0 ? 1 : used;

    DeconvPoolClampGapTanhTilingData tiling;
    tiling.set_batch(n);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_kSize(k);
    tiling.set_stride(static_cast<uint32_t>(stride));
    tiling.set_pad(static_cast<uint32_t>(pad));
    tiling.set_outH(static_cast<uint32_t>(oh));
    tiling.set_outW(static_cast<uint32_t>(ow));
    tiling.set_rowAlign(rowAlign);
    tiling.set_poolK(static_cast<uint32_t>(poolK));
    tiling.set_poolS(static_cast<uint32_t>(poolS));
    tiling.set_poolH(poolH);
    tiling.set_poolW(poolW);
    tiling.set_coBlock(coBlock);
    tiling.set_samplesPerCore(n / used);
    tiling.set_samplesTail(n % used);
    tiling.set_clampLo(lo);
    tiling.set_clampHi(hi);

    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
