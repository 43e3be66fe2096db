#include "deconv_last_axis_norm_pool_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t FP32_PER_BLOCK = 8;   // 32 bytes / sizeof(float)
constexpr uint64_t UB_RESERVED = 8 * 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// Reads an int list attribute with a fall-back when the list holds a single value.
inline void Triple(const gert::TypedContinuousVector<int64_t> *vec, uint32_t out[3], uint32_t dflt)
{
    out[0] = out[1] = out[2] = dflt;
    if (vec == nullptr || vec->GetSize() == 0) {
        return;
    }
    const int64_t *data = vec->GetData();
    for (size_t i = 0; i < 3; ++i) {
        out[i] = static_cast<uint32_t>(vec->GetSize() == 1 ? data[0] : data[i]);
    }
}
}  // namespace

ge::graphStatus DeconvLastAxisNormPoolGeluTilingFunc(gert::TilingContext *context)
{
    DeconvLastAxisNormPoolGeluTilingData td;
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }

    auto attrs = context->GetAttrs();
    uint32_t stride[3], pad[3], outPad[3], pool[3];
    Triple(attrs->GetListInt(0), stride, 1);
    Triple(attrs->GetListInt(1), pad, 0);
    Triple(attrs->GetListInt(2), outPad, 0);
    Triple(attrs->GetListInt(3), pool, 2);
    const float addValue = *attrs->GetFloat(4);
    const float eps = *attrs->GetFloat(5);

    const uint32_t n = xs.GetDim(0), cin = xs.GetDim(1);
    const uint32_t inDims[3] = {static_cast<uint32_t>(xs.GetDim(2)), static_cast<uint32_t>(xs.GetDim(3)),
                                static_cast<uint32_t>(xs.GetDim(4))};
    const uint32_t cout = ws.GetDim(1);
    const uint32_t k[3] = {static_cast<uint32_t>(ws.GetDim(2)), static_cast<uint32_t>(ws.GetDim(3)),
                           static_cast<uint32_t>(ws.GetDim(4))};
    uint32_t outDims[3], pooled[3];
    for (int i = 0; i < 3; ++i) {
        outDims[i] = (inDims[i] - 1) * stride[i] - 2 * pad[i] + k[i] + outPad[i];
        pooled[i] = outDims[i] / pool[i];
    }
    // gamma / beta normalise the innermost axis of the deconvolution output
    if (context->GetInputShape(3)->GetStorageShape().GetShapeSize() != outDims[2]) {
        return ge::GRAPH_FAILED;
    }

    td.set_batch(n);
    td.set_inChannels(cin);
    td.set_outChannels(cout);
    td.set_inD(inDims[0]);
    td.set_inH(inDims[1]);
    td.set_inW(inDims[2]);
    td.set_kD(k[0]);
    td.set_kH(k[1]);
    td.set_kW(k[2]);
    td.set_strideD(stride[0]);
    td.set_strideH(stride[1]);
    td.set_strideW(stride[2]);
    td.set_padD(pad[0]);
    td.set_padH(pad[1]);
    td.set_padW(pad[2]);
    td.set_outD(outDims[0]);
    td.set_outH(outDims[1]);
    td.set_outW(outDims[2]);
    const uint32_t owAlign = AlignUp(outDims[2], FP32_PER_BLOCK);
    td.set_outWAlign(owAlign);
    td.set_poolD(pool[0]);
    td.set_poolH(pool[1]);
    td.set_poolW(pool[2]);
    td.set_pooledD(pooled[0]);
    td.set_pooledH(pooled[1]);
    td.set_pooledW(pooled[2]);
    const uint32_t pwAlign = AlignUp(pooled[2], FP32_PER_BLOCK);
    td.set_pooledWAlign(pwAlign);
    td.set_addValue(addValue);
    td.set_epsilon(eps);

    // How many output channels can be kept resident at once:
    //   acc + poolAcc (2 * owAlign) + out queue (2 buffers * pwAlign) + weights (K^3) per channel
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t kVol = k[0] * k[1] * k[2];
    const uint64_t fixedBytes = (AlignUp(inDims[2], FP32_PER_BLOCK) + 4 * owAlign + 64) * sizeof(float);
    const uint64_t perChannel = (2ULL * owAlign + 2ULL * pwAlign + AlignUp(kVol, FP32_PER_BLOCK)) * sizeof(float);
    uint64_t budget = ubSize > fixedBytes + UB_RESERVED ? ubSize - fixedBytes - UB_RESERVED : 0;
    uint32_t block = static_cast<uint32_t>(budget / perChannel);
    if (block == 0) {
        return ge::GRAPH_FAILED;
    }
    block = block > cout ? cout : block;
    td.set_channelBlock(block);

    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t tasks = n * pooled[0] * pooled[1];
    const uint32_t used = tasks < coreNum ? (tasks == 0 ? 1 : tasks) : coreNum;
    td.set_totalTasks(tasks);
    td.set_tasksPerCore(tasks / used);
    td.set_tailTasks(tasks % used);
    context->SetBlockDim(used);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsSizes = context->GetWorkspaceSizes(1);
    wsSizes[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
