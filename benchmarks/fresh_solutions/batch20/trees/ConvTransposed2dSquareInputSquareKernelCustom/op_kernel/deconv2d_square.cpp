/*
 * Deconv2dSquare: transposed 2-D convolution with a KxK filter, same stride /
 * padding on both axes, channel groups, optional bias.  Vector-core version.
 *
 * y[n,oc,oh,ow] = sum_{ic,kh,kw} x[n,ic,(oh+p-kh)/s,(ow+p-kw)/s] * f[ic,oc',kh,kw]
 * (terms whose quotients are not integral or fall outside the input are 0)
 *
 * For each kw the column mapping ow -> (ow+p-kw)/s is fixed, so it is
 * precomputed once as a Gather byte-offset table; illegal columns point at a
 * zero slot kept right behind the input row.  A gathered row is then simply
 * scaled and accumulated (Axpy) into every output channel of the block.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t DB = 2;
__aicore__ inline uint32_t Up16(uint32_t v) { return (v + 15U) & ~15U; }
}  // namespace

template <typename T>
class Deconv2dSquareOp {
public:
    __aicore__ inline Deconv2dSquareOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR f, GM_ADDR b, GM_ADDR y, const Deconv2dSquareTiling &tl)
    {
        t = tl;
        cinG = t.cin / t.groups;
        coutG = t.cout / t.groups;
        kk = t.k * t.k;
        woutA = Up16(t.wout);
        winA = Up16(t.win + 1);                         // +1 for the zero slot
        wRow = Up16(t.ocPerUnit * kk);                   // UB stride of one ic's filter block
        if constexpr (sizeof(T) == 4) {
            wRow = (t.ocPerUnit * kk + 7U) & ~7U;
        }

        xGm.SetGlobalBuffer((__gm__ T *)x);
        fGm.SetGlobalBuffer((__gm__ T *)f);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        if (t.withBias != 0) {
            bGm.SetGlobalBuffer((__gm__ T *)b);
        }

        pipe.InitBuffer(xIn, DB, winA * sizeof(T));
        pipe.InitBuffer(fIn, 1, cinG * wRow * sizeof(T));
        pipe.InitBuffer(yOut, DB, woutA * sizeof(T));
        pipe.InitBuffer(xF32, winA * sizeof(float));
        pipe.InitBuffer(fF32, cinG * wRow * sizeof(float));
        pipe.InitBuffer(tables, t.k * woutA * sizeof(uint32_t));
        pipe.InitBuffer(taps, t.k * woutA * sizeof(float));
        pipe.InitBuffer(acc, t.ocPerUnit * woutA * sizeof(float));

        PrepareTables();
    }

    __aicore__ inline void Run()
    {
        uint32_t stride = GetBlockNum();
        for (uint32_t u = GetBlockIdx(); u < t.totalUnits; u += stride) {
            uint32_t strip = u % t.stripCount;
            uint32_t r = u / t.stripCount;
            uint32_t ocu = r % t.ocUnitsPerGroup;
            r /= t.ocUnitsPerGroup;
            uint32_t g = r % t.groups;
            uint32_t n = r / t.groups;

            uint32_t oc0 = ocu * t.ocPerUnit;
            uint32_t ocCnt = coutG - oc0 < t.ocPerUnit ? coutG - oc0 : t.ocPerUnit;
            uint32_t oh0 = strip * t.stripRows;
            uint32_t oh1 = oh0 + t.stripRows < t.hout ? oh0 + t.stripRows : t.hout;

            LoadFilters(g, oc0, ocCnt);
            for (uint32_t oh = oh0; oh < oh1; ++oh) {
                OutputRow(n, g, oc0, ocCnt, oh);
            }
        }
    }

private:
    __aicore__ inline void PrepareTables()
    {
        LocalTensor<uint32_t> tb = tables.Get<uint32_t>();
        const uint32_t zeroSlot = t.win * sizeof(float);
        for (uint32_t kw = 0; kw < t.k; ++kw) {
            for (uint32_t ow = 0; ow < t.wout; ++ow) {
                int32_t q = static_cast<int32_t>(ow + t.pad) - static_cast<int32_t>(kw);
                uint32_t off = zeroSlot;
                if (q >= 0 && (static_cast<uint32_t>(q) % t.stride) == 0) {
                    uint32_t iw = static_cast<uint32_t>(q) / t.stride;
                    if (iw < t.win) {
                        off = iw * sizeof(float);
                    }
                }
                tb.SetValue(kw * woutA + ow, off);
            }
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
        Duplicate(xF32.Get<float>(), 0.0f, winA);   // zero slot (and tail) stay zero forever
    }

    // filter block f[g*cinG : (g+1)*cinG, oc0 : oc0+ocCnt, :, :] as [cinG][wRow] fp32
    __aicore__ inline void LoadFilters(uint32_t g, uint32_t oc0, uint32_t ocCnt)
    {
        LocalTensor<T> raw = fIn.AllocTensor<T>();
        uint32_t blockBytes = ocCnt * kk * sizeof(T);
        uint32_t gap = (coutG - ocCnt) * kk * sizeof(T);
        // keep the UB row pitch at wRow even for a partial channel block
        uint32_t dstGap = (wRow * static_cast<uint32_t>(sizeof(T)) - ((blockBytes + 31U) / 32U) * 32U) / 32U;
        DataCopyExtParams cp{static_cast<uint16_t>(cinG), blockBytes, gap, dstGap, 0};
        DataCopyPadExtParams<T> pp{false, 0, 0, 0};
        uint64_t src = (static_cast<uint64_t>(g) * cinG * coutG + oc0) * kk;
        DataCopyPad(raw, fGm[src], cp, pp);
        fIn.EnQue(raw);
        raw = fIn.DeQue<T>();
        LocalTensor<float> wf = fF32.Get<float>();
        if constexpr (sizeof(T) == 4) {
            Adds(wf, raw, 0.0f, cinG * wRow);
        } else {
            Cast(wf, raw, RoundMode::CAST_NONE, cinG * wRow);
        }
        fIn.FreeTensor(raw);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }

    __aicore__ inline void OutputRow(uint32_t n, uint32_t g, uint32_t oc0, uint32_t ocCnt, uint32_t oh)
    {
        LocalTensor<float> accT = acc.Get<float>();
        LocalTensor<float> wf = fF32.Get<float>();
        LocalTensor<float> tapT = taps.Get<float>();
        LocalTensor<uint32_t> tb = tables.Get<uint32_t>();
        LocalTensor<float> xf = xF32.Get<float>();
        Duplicate(accT, 0.0f, ocCnt * woutA);

        for (uint32_t kh = 0; kh < t.k; ++kh) {
            int32_t q = static_cast<int32_t>(oh + t.pad) - static_cast<int32_t>(kh);
            if (q < 0 || (static_cast<uint32_t>(q) % t.stride) != 0) {
                continue;
            }
            uint32_t ih = static_cast<uint32_t>(q) / t.stride;
            if (ih >= t.hin) {
                continue;
            }
            for (uint32_t icl = 0; icl < cinG; ++icl) {
                uint32_t ic = g * cinG + icl;
                // fetch the input row
                LocalTensor<T> xr = xIn.AllocTensor<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(t.win * sizeof(T)), 0, 0, 0};
                DataCopyPadExtParams<T> pp{false, 0, 0, 0};
                DataCopyPad(xr, xGm[((static_cast<uint64_t>(n) * t.cin + ic) * t.hin + ih) * t.win], cp, pp);
                xIn.EnQue(xr);
                xr = xIn.DeQue<T>();
                if constexpr (sizeof(T) == 4) {
                    Adds(xf, xr, 0.0f, t.win);
                } else {
                    Cast(xf, xr, RoundMode::CAST_NONE, t.win);
                }
                xIn.FreeTensor(xr);

                // K column-remapped copies of the row
                for (uint32_t kw = 0; kw < t.k; ++kw) {
                    Gather(tapT[kw * woutA], xf, tb[kw * woutA], 0U, t.wout);
                }

                // rank-1 style update of all channels in the block
                for (uint32_t o = 0; o < ocCnt; ++o) {
                    uint32_t wBase = icl * wRow + o * kk + kh * t.k;
                    for (uint32_t kw = 0; kw < t.k; ++kw) {
                        Axpy(accT[o * woutA], tapT[kw * woutA], wf.GetValue(wBase + kw), t.wout);
                    }
                }
            }
        }

        for (uint32_t o = 0; o < ocCnt; ++o) {
            uint32_t oc = g * coutG + oc0 + o;
            LocalTensor<float> row = accT[o * woutA];
            if (t.withBias != 0) {
                Adds(row, row, static_cast<float>(bGm.GetValue(oc)), t.wout);
            }
            LocalTensor<T> yr = yOut.AllocTensor<T>();
            if constexpr (sizeof(T) == 4) {
                Adds(yr, row, 0.0f, t.wout);
            } else {
                Cast(yr, row, RoundMode::CAST_ROUND, t.wout);
            }
            yOut.EnQue(yr);
            yr = yOut.DeQue<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(t.wout * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[((static_cast<uint64_t>(n) * t.cout + oc) * t.hout + oh) * t.wout], yr, cp);
            yOut.FreeTensor(yr);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, DB> xIn;
    TQue<QuePosition::VECIN, 1> fIn;
    TQue<QuePosition::VECOUT, DB> yOut;
    TBuf<TPosition::VECCALC> xF32, fF32, tables, taps, acc;
    GlobalTensor<T> xGm, fGm, bGm, yGm;
    Deconv2dSquareTiling t;
    uint32_t cinG = 0, coutG = 0, kk = 0, woutA = 0, winA = 0, wRow = 0;
};

extern "C" __global__ __aicore__ void deconv2d_square(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tl, tiling);
    Deconv2dSquareOp<DTYPE_X> op;
    op.Init(x, filter, bias, y, tl);
    op.Run();
}
