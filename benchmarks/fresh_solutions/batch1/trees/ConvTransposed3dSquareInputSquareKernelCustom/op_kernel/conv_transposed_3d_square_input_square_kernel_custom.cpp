#include "kernel_operator.h"

constexpr int32_t TAP_BUFFERS = 2;
constexpr int32_t OUT_BUFFERS = 2;

// Valid 3D convolution over the K-1 padded input (== ConvTranspose3d, stride 1, pad 0).
//
// Work split: core -> (oc group, slice of output rows). The weights of the oc group
// are kept in UB for the whole kernel. An output row is (n, od, oh) x [0, outW).
// For each row the input is staged as "taps": for every (ic, kd, kh, kw) the
// contiguous segment xpad[n, ic, od+kd, oh+kh, kw : kw+outW]; then
//   y[oc, :] = sum_{ic,kd,kh,kw} w[oc, ic, kd, kh, kw] * tap[ic, kd, kh, kw, :]
// is evaluated with Axpy on the vector unit. Input channels are staged icTile at a
// time so the tap buffer can be double buffered.
class KernelConvT3dSquare {
public:
    __aicore__ inline KernelConvT3dSquare() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed3dSquareInputSquareKernelCustomTilingData& t)
    {
        cin = t.inChannels;
        cout = t.outChannels;
        dp = t.padD;
        hp = t.padH;
        wp = t.padW;
        k = t.kernel;
        od = t.outD;
        oh = t.outH;
        ow = t.outW;
        owA = t.outWAlign;
        ocTile = t.ocTile;
        icTile = t.icTile;
        kk = k * k * k;

        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t group = idx % t.ocGroups;
        uint32_t part = idx / t.ocGroups;
        oc0 = group * ocTile;
        rowFirst = part * t.rowsPerPart;
        rowLast = rowFirst + t.rowsPerPart;
        if (rowLast > t.totalRows) rowLast = t.totalRows;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)t.batch * cin * dp * hp * wp);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cout * cin * kk);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)t.batch * cout * od * oh * ow);

        uint32_t wCount = ocTile * cin * kk;
        pipe.InitBuffer(wBuf, ((wCount + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(tapQ, TAP_BUFFERS, icTile * kk * owA * sizeof(float));
        pipe.InitBuffer(outQ, OUT_BUFFERS, ocTile * owA * sizeof(float));

        // resident weights for [oc0, oc0 + ocTile)
        wLocal = wBuf.Get<float>();
        AscendC::DataCopyExtParams cp{1, wCount * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(wLocal, wGm[(uint64_t)oc0 * cin * kk], cp,
                             AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = rowFirst; row < rowLast; ++row) {
            uint32_t h = row % oh;
            uint32_t tmp = row / oh;
            uint32_t d = tmp % od;
            uint32_t n = tmp / od;

            AscendC::LocalTensor<float> acc = outQ.AllocTensor<float>();
            AscendC::Duplicate(acc, 0.0f, ocTile * owA);

            for (uint32_t ic0 = 0; ic0 < cin; ic0 += icTile) {
                uint32_t icCnt = (cin - ic0) < icTile ? (cin - ic0) : icTile;
                StageTaps(n, d, h, ic0, icCnt);
                Accumulate(acc, ic0, icCnt);
            }

            outQ.EnQue(acc);
            WriteRow(n, d, h);
        }
    }

private:
    // tap buffer layout: [kd][kh][kw][ic (icTile)][owA]
    __aicore__ inline void StageTaps(uint32_t n, uint32_t d, uint32_t h, uint32_t ic0, uint32_t icCnt)
    {
        AscendC::LocalTensor<float> taps = tapQ.AllocTensor<float>();
        uint64_t vol = (uint64_t)dp * hp * wp;
        AscendC::DataCopyExtParams cp;
        cp.blockCount = (uint16_t)icCnt;
        cp.blockLen = ow * sizeof(float);
        cp.srcStride = (uint32_t)((vol - ow) * sizeof(float));
        cp.dstStride = 0;
        cp.rsv = 0;
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint64_t chanBase = ((uint64_t)n * cin + ic0) * vol;
        for (uint32_t kd = 0; kd < k; ++kd) {
            for (uint32_t kh = 0; kh < k; ++kh) {
                uint64_t rowBase = chanBase + ((uint64_t)(d + kd) * hp + (h + kh)) * wp;
                for (uint32_t kw = 0; kw < k; ++kw) {
                    uint32_t t = (kd * k + kh) * k + kw;
                    AscendC::DataCopyPad(taps[t * icTile * owA], xGm[rowBase + kw], cp, pad);
                }
            }
        }
        tapQ.EnQue(taps);
    }

    __aicore__ inline void Accumulate(AscendC::LocalTensor<float>& acc, uint32_t ic0, uint32_t icCnt)
    {
        AscendC::LocalTensor<float> taps = tapQ.DeQue<float>();
        for (uint32_t j = 0; j < ocTile; ++j) {
            AscendC::LocalTensor<float> dst = acc[j * owA];
            uint32_t wRow = j * cin * kk;
            for (uint32_t c = 0; c < icCnt; ++c) {
                uint32_t wBase = wRow + (ic0 + c) * kk;
                for (uint32_t t = 0; t < kk; ++t) {
                    float wv = wLocal.GetValue(wBase + t);
                    AscendC::Axpy(dst, taps[(t * icTile + c) * owA], wv, owA);
                }
            }
        }
        tapQ.FreeTensor(taps);
    }

    __aicore__ inline void WriteRow(uint32_t n, uint32_t d, uint32_t h)
    {
        AscendC::LocalTensor<float> res = outQ.DeQue<float>();
        uint64_t outVol = (uint64_t)od * oh * ow;
        uint64_t dst = ((uint64_t)n * cout + oc0) * outVol + ((uint64_t)d * oh + h) * ow;
        AscendC::DataCopyExtParams cp;
        cp.blockCount = (uint16_t)ocTile;
        cp.blockLen = ow * sizeof(float);
        cp.srcStride = 0;
        cp.dstStride = (uint32_t)((outVol - ow) * sizeof(float));
        cp.rsv = 0;
        AscendC::DataCopyPad(yGm[dst], res, cp);
        outQ.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wBuf;
    AscendC::TQue<AscendC::TPosition::VECIN, TAP_BUFFERS> tapQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, OUT_BUFFERS> outQ;
    AscendC::GlobalTensor<float> xGm, wGm, yGm;
    AscendC::LocalTensor<float> wLocal;
    uint32_t cin, cout, dp, hp, wp, k, kk, od, oh, ow, owA;
    uint32_t ocTile, icTile, oc0, rowFirst, rowLast;
};

extern "C" __global__ __aicore__ void conv_transposed_3d_square_input_square_kernel_custom(
    GM_ADDR x_padded, GM_ADDR weight_flipped, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvT3dSquare op;
    op.Init(x_padded, weight_flipped, y, tilingData);
    op.Process();
}
