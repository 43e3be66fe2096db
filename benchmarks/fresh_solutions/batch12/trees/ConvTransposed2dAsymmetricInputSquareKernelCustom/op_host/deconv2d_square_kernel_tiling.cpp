/**
 * Host tiling for Deconv2dSquareKernel.
 *
 * Work is split into "rows": one row is (image n, block of output channels, output line oh).
 * Each AI core takes a contiguous range of rows; a row is produced completely in UB and written once.
 */
#include "deconv2d_square_kernel_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_ELEM = 8;                  // 32 bytes of fp32
constexpr uint64_t ACC_BUDGET = 96 * 1024;          // bytes of UB reserved for the accumulators
constexpr uint32_t ATTR_STRIDE = 0;
constexpr uint32_t ATTR_PAD = 1;
constexpr uint32_t ATTR_OUT_PAD = 2;
constexpr uint32_t ATTR_GROUPS = 3;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}  // namespace

ge::graphStatus Deconv2dSquareKernelTilingFunc(gert::TilingContext *context)
{
    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *wShape = context->GetInputShape(1);
    if (xShape == nullptr || wShape == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::Shape &xs = xShape->GetStorageShape();
    const gert::Shape &ws = wShape->GetStorageShape();
    if (xs.GetDimNum() != 4 || ws.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(ATTR_STRIDE);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(ATTR_PAD);
    int64_t outPad = *attrs->GetAttrPointer<int64_t>(ATTR_OUT_PAD);
    int64_t groups = *attrs->GetAttrPointer<int64_t>(ATTR_GROUPS);
    if (stride <= 0 || pad < 0 || groups <= 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t batch = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t cin = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t hin = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t win = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t coutPg = static_cast<uint32_t>(ws.GetDim(1));
    uint32_t k = static_cast<uint32_t>(ws.GetDim(2));
    uint32_t cout = coutPg * static_cast<uint32_t>(groups);

    int64_t hout = (static_cast<int64_t>(hin) - 1) * stride - 2 * pad + k + outPad;
    int64_t wout = (static_cast<int64_t>(win) - 1) * stride - 2 * pad + k + outPad;
    if (hout <= 0 || wout <= 0 || cin % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t woutAlign = AlignUp(static_cast<uint32_t>(wout), ALIGN_ELEM);
    uint32_t winAlign = AlignUp(win, ALIGN_ELEM);

    // largest divisor of coutPerGroup whose accumulators fit the budget
    uint32_t ocBlock = 1;
    for (uint32_t b = coutPg; b >= 1; --b) {
        if (coutPg % b == 0 && static_cast<uint64_t>(b) * woutAlign * sizeof(float) <= ACC_BUDGET) {
            ocBlock = b;
            break;
        }
    }
    uint32_t ocBlockNum = cout / ocBlock;
    uint32_t totalRows = batch * ocBlockNum * static_cast<uint32_t>(hout);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;

    Deconv2dSquareKernelTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_hin(hin);
    tiling.set_win(win);
    tiling.set_hout(static_cast<uint32_t>(hout));
    tiling.set_wout(static_cast<uint32_t>(wout));
    tiling.set_kSize(k);
    tiling.set_stride(static_cast<uint32_t>(stride));
    tiling.set_pad(static_cast<uint32_t>(pad));
    tiling.set_groups(static_cast<uint32_t>(groups));
    tiling.set_cinPerGroup(cin / static_cast<uint32_t>(groups));
    tiling.set_coutPerGroup(coutPg);
    tiling.set_ocBlock(ocBlock);
    tiling.set_ocBlockNum(ocBlockNum);
    tiling.set_winAlign(winAlign);
    tiling.set_woutAlign(woutAlign);
    tiling.set_totalRows(totalRows);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_hasBias(context->GetOptionalInputShape(2) != nullptr ? 1 : 0);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
