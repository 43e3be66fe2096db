// VolumeConvNormAverage: valid 3-D convolution -> group norm (affine) -> mean over C,D,H,W.
//
// The final mean only needs, per output channel, the sum of its conv outputs, and per group
// the sum of squares. So the conv volume is never written out: we compute it tile by tile,
// reduce it on the fly and finish with a handful of scalar operations per sample.
//
//   mean_c  = S_c / P                      (P = OD*OH*OW)
//   mu_g    = sum_{c in g} S_c / (cpg*P),  var_g = sum_{c in g} Q_c / (cpg*P) - mu_g^2
//   y[n]    = 1/C * sum_c ( gamma_c * (mean_c - mu_g) / sqrt(var_g + eps) + beta_c )
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t MAX_CH = 256;  // per-channel statistics kept in UB

class VolumeConvNormAverageKernel {
public:
    __aicore__ inline VolumeConvNormAverageKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR f, GM_ADDR fb, GM_ADDR g, GM_ADDR b, GM_ADDR y,
                                const VolumeConvNormAverageTiling &tl)
    {
        tl_ = tl;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        fGm.SetGlobalBuffer((__gm__ float *)f);
        fbGm.SetGlobalBuffer((__gm__ float *)fb);
        gammaGm.SetGlobalBuffer((__gm__ float *)g);
        betaGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        tileLen = tl.rowTile * tl.owAligned;
        taps = tl.cin * tl.kd * tl.kh * tl.kw;
        pipe.InitBuffer(inQue, 2, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
        pipe.InitBuffer(colSumBuf, tl.owAligned * sizeof(float));
        pipe.InitBuffer(colSqBuf, tl.owAligned * sizeof(float));
        pipe.InitBuffer(filterBuf, ((taps + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(statBuf, 2 * MAX_CH * sizeof(float));
        pipe.InitBuffer(miscBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t s = GetBlockIdx(); s < tl_.n; s += GetBlockNum()) {
            LocalTensor<float> stat = statBuf.Get<float>();
            for (uint32_t co = 0; co < tl_.cout; ++co) {
                ChannelStats(s, co, stat);
            }
            Finish(s, stat);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Wait()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    // Sum and sum of squares of conv output channel `co` of sample `s` -> stat[co], stat[MAX_CH+co]
    __aicore__ inline void ChannelStats(uint32_t s, uint32_t co, LocalTensor<float> &stat)
    {
        LocalTensor<float> filt = filterBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> colSum = colSumBuf.Get<float>();
        LocalTensor<float> colSq = colSqBuf.Get<float>();
        LocalTensor<float> misc = miscBuf.Get<float>();

        DataCopyPad(filt, fGm[static_cast<uint64_t>(co) * taps],
                    DataCopyExtParams{1, taps * 4u, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});
        Wait<HardEvent::MTE2_S>();
        const float bias = fbGm.GetValue(co);
        Duplicate(colSum, 0.0f, tl_.owAligned);
        Duplicate(colSq, 0.0f, tl_.owAligned);

        const uint32_t owa = tl_.owAligned;
        const uint64_t planeIn = static_cast<uint64_t>(tl_.h) * tl_.w;
        for (uint32_t z = 0; z < tl_.od; ++z) {
            for (uint32_t r0 = 0; r0 < tl_.oh; r0 += tl_.rowTile) {
                const uint32_t rows = (tl_.oh - r0 < tl_.rowTile) ? (tl_.oh - r0) : tl_.rowTile;
                const uint32_t cnt = rows * owa;
                Duplicate(acc, bias, cnt);
                uint32_t tap = 0;
                for (uint32_t ci = 0; ci < tl_.cin; ++ci) {
                    const uint64_t chanBase = (static_cast<uint64_t>(s) * tl_.cin + ci) * tl_.d * planeIn;
                    for (uint32_t a = 0; a < tl_.kd; ++a) {
                        for (uint32_t bb = 0; bb < tl_.kh; ++bb) {
                            for (uint32_t c = 0; c < tl_.kw; ++c, ++tap) {
                                const uint64_t off = chanBase + (z + a) * planeIn + (r0 + bb) * tl_.w + c;
                                LocalTensor<float> win = inQue.AllocTensor<float>();
                                DataCopyPad(win, xGm[off],
                                            DataCopyExtParams{static_cast<uint16_t>(rows), tl_.ow * 4u,
                                                              (tl_.w - tl_.ow) * 4u, 0, 0},
                                            DataCopyPadExtParams<float>{true, 0,
                                                static_cast<uint8_t>(owa - tl_.ow), 0.0f});
                                inQue.EnQue(win);
                                win = inQue.DeQue<float>();
                                Axpy(acc, win, filt.GetValue(tap), cnt);
                                inQue.FreeTensor(win);
                            }
                        }
                    }
                }
                // fold rows into per-column partial sums
                Mul(sq, acc, acc, cnt);
                for (uint32_t r = 0; r < rows; ++r) {
                    Add(colSum, colSum, acc[r * owa], owa);
                    Add(colSq, colSq, sq[r * owa], owa);
                }
            }
        }
        // padded columns carry `bias` rather than conv values: reduce only the first `ow`
        ReduceSum(misc, colSum, sq, tl_.ow);
        ReduceSum(misc[8], colSq, sq, tl_.ow);
        Wait<HardEvent::V_S>();
        stat.SetValue(co, misc.GetValue(0));
        stat.SetValue(MAX_CH + co, misc.GetValue(8));
        Wait<HardEvent::S_V>();
    }

    __aicore__ inline void Finish(uint32_t s, LocalTensor<float> &stat)
    {
        LocalTensor<float> misc = miscBuf.Get<float>();
        const uint32_t cpg = tl_.cout / tl_.groups;
        const float P = static_cast<float>(tl_.od) * tl_.oh * tl_.ow;
        const float invGroupCnt = 1.0f / (P * cpg);

        // group means / variances, then rstd through the vector unit
        for (uint32_t g = 0; g < tl_.groups; ++g) {
            float sum = 0.0f, sq = 0.0f;
            for (uint32_t c = g * cpg; c < (g + 1) * cpg; ++c) {
                sum += stat.GetValue(c);
                sq += stat.GetValue(MAX_CH + c);
            }
            const float mu = sum * invGroupCnt;
            float var = sq * invGroupCnt - mu * mu;
            misc.SetValue(16 + g, (var > 0.0f ? var : 0.0f) + tl_.eps);
            misc.SetValue(48 + g, mu);  // groups <= 16 assumed by the misc layout
        }
        Wait<HardEvent::S_V>();
        Sqrt(misc[16], misc[16], tl_.groups);
        Wait<HardEvent::V_S>();

        float total = 0.0f;
        for (uint32_t c = 0; c < tl_.cout; ++c) {
            const uint32_t g = c / cpg;
            const float meanC = stat.GetValue(c) / P;
            total += gammaGm.GetValue(c) * (meanC - misc.GetValue(48 + g)) / misc.GetValue(16 + g) +
                     betaGm.GetValue(c);
        }
        misc.SetValue(0, total / static_cast<float>(tl_.cout));
        Wait<HardEvent::S_MTE3>();
        DataCopyPad(yGm[s], misc, DataCopyExtParams{1, 4u, 0, 0, 0});
        Wait<HardEvent::MTE3_S>();
    }

    VolumeConvNormAverageTiling tl_;
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQue;
    TBuf<TPosition::VECCALC> accBuf, sqBuf, colSumBuf, colSqBuf, filterBuf, statBuf, miscBuf;
    GlobalTensor<float> xGm, fGm, fbGm, gammaGm, betaGm, yGm;
    uint32_t tileLen = 0, taps = 0;
};

extern "C" __global__ __aicore__ void volume_conv_norm_average(GM_ADDR x, GM_ADDR filter, GM_ADDR filter_bias,
                                                               GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tl, tiling);
    VolumeConvNormAverageKernel k;
    k.Init(x, filter, filter_bias, gamma, beta, y, tl);
    k.Process();
}
