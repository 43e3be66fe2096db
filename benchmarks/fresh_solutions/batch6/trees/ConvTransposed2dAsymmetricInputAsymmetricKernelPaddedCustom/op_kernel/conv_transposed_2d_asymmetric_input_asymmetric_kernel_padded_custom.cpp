#include "kernel_operator.h"

using namespace AscendC;

// ConvTranspose2d, stride 1, written in gather form:
//   y[n, oc, oh, ow] = sum_{ic, i, j} x[n, ic, oh + padH - i, ow + padW - j] * w[ic, oc, i, j]
// A work item is (n, oh, column chunk). For every (ic, i, j) one shifted slice of an input row is
// loaded (zeros outside the image) and accumulated into all Cout rows with Axpy. The whole weight
// tensor (Cin*Cout*KH*KW) lives in UB and is read as scalars.
class ConvTranspose2dGatherKernel {
public:
    __aicore__ inline ConvTranspose2dGatherKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustomTilingData& td)
    {
        N = td.n; CI = td.cin; CO = td.cout;
        HI = td.hin; WI = td.win;
        KH = td.kh; KW = td.kw;
        PH = td.padH; PW = td.padW;
        HO = td.hout; WO = td.wout;
        chunk = td.chunkW;
        chunksPerRow = td.chunksPerRow;

        uint32_t core = GetBlockIdx();
        itemBegin = core * td.itemsPerCore + (core < td.itemsRemain ? core : td.itemsRemain);
        itemEnd = itemBegin + td.itemsPerCore + (core < td.itemsRemain ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)N * CI * HI * WI);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)CI * CO * KH * KW);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)N * CO * HO * WO);

        pipe.InitBuffer(wBuf, td.weightLenAlign * sizeof(float));
        pipe.InitBuffer(accBuf, CO * chunk * sizeof(float));
        pipe.InitBuffer(rowQue, 2, chunk * sizeof(float));

        // weights once per core
        LocalTensor<float> wl = wBuf.Get<float>();
        DataCopyExtParams cp{1, CI * CO * KH * KW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm, cp, np);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t item = itemBegin; item < itemEnd; ++item) {
            uint32_t c = item % chunksPerRow;
            uint32_t rowId = item / chunksPerRow;
            uint32_t oh = rowId % HO;
            uint32_t n = rowId / HO;
            uint32_t w0 = c * chunk;
            uint32_t cols = (WO - w0) < chunk ? (WO - w0) : chunk;
            ComputeItem(n, oh, w0, cols);
        }
    }

private:
    __aicore__ inline void ComputeItem(uint32_t n, uint32_t oh, uint32_t w0, uint32_t cols)
    {
        uint32_t colsA = (cols + 7) / 8 * 8;
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        PipeBarrier<PIPE_ALL>();   // previous item's output copies must be done before reuse
        Duplicate(acc, 0.0f, CO * chunk);

        for (uint32_t ic = 0; ic < CI; ++ic) {
            for (uint32_t i = 0; i < KH; ++i) {
                int32_t ih = static_cast<int32_t>(oh + PH) - static_cast<int32_t>(i);
                if (ih < 0 || ih >= static_cast<int32_t>(HI)) {
                    continue;
                }
                uint64_t rowBase = (((uint64_t)n * CI + ic) * HI + ih) * WI;
                for (uint32_t j = 0; j < KW; ++j) {
                    int32_t iw0 = static_cast<int32_t>(w0 + PW) - static_cast<int32_t>(j);
                    if (!LoadSlice(rowBase, iw0, cols, colsA)) {
                        continue;
                    }
                    LocalTensor<float> slice = rowQue.DeQue<float>();
                    for (uint32_t oc = 0; oc < CO; ++oc) {
                        float wv = wl.GetValue(((ic * CO + oc) * KH + i) * KW + j);
                        Axpy(acc[oc * chunk], slice, wv, colsA);
                    }
                    rowQue.FreeTensor(slice);
                }
            }
        }

        event_t evV = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(evV);
        WaitFlag<HardEvent::V_MTE3>(evV);
        DataCopyExtParams out{1, cols * (uint32_t)sizeof(float), 0, 0, 0};
        for (uint32_t oc = 0; oc < CO; ++oc) {
            uint64_t dst = (((uint64_t)n * CO + oc) * HO + oh) * WO + w0;
            DataCopyPad(yGm[dst], acc[oc * chunk], out);
        }
    }

    // slice[k] = x_row[iw0 + k] for k in [0, cols), zero where the index falls outside the row
    __aicore__ inline bool LoadSlice(uint64_t rowBase, int32_t iw0, uint32_t cols, uint32_t colsA)
    {
        int32_t lo = iw0 < 0 ? 0 : iw0;
        int32_t hi = iw0 + static_cast<int32_t>(cols);
        if (hi > static_cast<int32_t>(WI)) hi = static_cast<int32_t>(WI);
        if (hi <= lo) {
            return false;
        }
        uint32_t left = static_cast<uint32_t>(lo - iw0);
        uint32_t len = static_cast<uint32_t>(hi - lo);

        LocalTensor<float> slice = rowQue.AllocTensor<float>();
        if (left + len < cols) {
            // right edge of the image: clear the tail that the copy does not reach
            Duplicate(slice, 0.0f, colsA);
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
            SetFlag<HardEvent::V_MTE2>(ev);
            WaitFlag<HardEvent::V_MTE2>(ev);
        }
        uint32_t padTo = (left + len + 7) / 8 * 8;
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{true, static_cast<uint8_t>(left),
                                       static_cast<uint8_t>(padTo - left - len), 0.0f};
        DataCopyPad(slice, xGm[rowBase + lo], cp, pp);
        rowQue.EnQue(slice);
        return true;
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> wBuf;
    TBuf<TPosition::VECCALC> accBuf;
    TQue<QuePosition::VECIN, 2> rowQue;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t N, CI, CO, HI, WI, KH, KW, PH, PW, HO, WO;
    uint32_t chunk, chunksPerRow;
    uint32_t itemBegin, itemEnd;
};

extern "C" __global__ __aicore__ void conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ConvTranspose2dGatherKernel op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
