/*
 * StridedUpconv2d kernel - transposed 2-D convolution, (KH, KW) window,
 * per-axis stride / padding, NCHW.
 *
 * For output row (n, co, oh) and every input row ih that reaches it (through tap
 * kh = oh + ph - ih * sh), all KW horizontally shifted views of x[n, ci, ih, :] are
 * fetched by one burst of DMAs into a [KW][laneLen] staging tile (CopyIn), then
 * KW Axpy's fold them into the fp32 accumulator (Compute). With sw > 1 the
 * accumulator holds the row as sw phases and Gather restores the order in CopyOut.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUF_CNT = 2;
constexpr uint32_t MAX_TAPS = 16;

template <typename T>
class StridedUpconv2dKernel {
public:
    __aicore__ inline StridedUpconv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y, StridedUpconv2dTilingData &td)
    {
        tiling = td;
        uint32_t bid = GetBlockIdx();
        if (bid < tiling.formerNum) {
            myRows = tiling.formerRows;
            firstRow = bid * tiling.formerRows;
        } else {
            myRows = tiling.tailRows;
            firstRow = tiling.formerNum * tiling.formerRows + (bid - tiling.formerNum) * tiling.tailRows;
        }

        xGm.SetGlobalBuffer((__gm__ T *)x);
        fGm.SetGlobalBuffer((__gm__ T *)filter);
        if (tiling.withBias) {
            bGm.SetGlobalBuffer((__gm__ T *)bias);
        }
        yGm.SetGlobalBuffer((__gm__ T *)y);

        const uint32_t lane = tiling.laneLen;
        pipe.InitBuffer(stageQue, BUF_CNT, tiling.kw * lane * sizeof(T));
        pipe.InitBuffer(yQue, BUF_CNT, tiling.woAlign * sizeof(T));
        pipe.InitBuffer(wideBuf, tiling.kw * lane * sizeof(float));
        pipe.InitBuffer(accBuf, tiling.sw * lane * sizeof(float));
        pipe.InitBuffer(rowBuf, tiling.woAlign * sizeof(float));
        pipe.InitBuffer(posBuf, tiling.woAlign * sizeof(uint32_t));

        // Per tap geometry does not depend on the row; compute it once.
        const int32_t s = (int32_t)tiling.sw;
        for (uint32_t t = 0; t < tiling.kw; ++t) {
            int32_t shift = (int32_t)t - (int32_t)tiling.pw;
            int32_t r = ((shift % s) + s) % s;
            int32_t d = (shift - r) / s;
            int32_t len = ((int32_t)tiling.wo - r + s - 1) / s;
            int32_t lo = d > 0 ? d : 0;
            int32_t hi = (int32_t)tiling.wi + d;
            hi = hi < len ? hi : len;
            tapPhase[t] = r;
            tapLo[t] = lo;
            tapHi[t] = hi;
            tapSrc[t] = lo - d;
        }
        if (tiling.sw > 1) {
            LocalTensor<uint32_t> pos = posBuf.Get<uint32_t>();
            for (uint32_t o = 0; o < tiling.wo; ++o) {
                pos.SetValue(o, ((o % tiling.sw) * lane + o / tiling.sw) * sizeof(float));
            }
            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(e);
            WaitFlag<HardEvent::S_V>(e);
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < myRows; ++i) {
            const uint32_t row = firstRow + i;
            const uint32_t oh = row % tiling.ho;
            const uint32_t oc = (row / tiling.ho) % tiling.co;
            const uint32_t b = row / tiling.ho / tiling.co;

            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, tiling.sw * tiling.laneLen);
            PipeBarrier<PIPE_V>();

            const uint32_t g = oc / tiling.coPerGroup;
            const uint32_t ocl = oc % tiling.coPerGroup;
            for (uint32_t kr = 0; kr < tiling.kh; ++kr) {
                int32_t num = (int32_t)oh + (int32_t)tiling.ph - (int32_t)kr;
                if (num < 0 || num % (int32_t)tiling.sh != 0) {
                    continue;
                }
                uint32_t ih = (uint32_t)num / tiling.sh;
                if (ih >= tiling.hi) {
                    continue;
                }
                for (uint32_t c = 0; c < tiling.ciPerGroup; ++c) {
                    uint32_t ic = g * tiling.ciPerGroup + c;
                    uint64_t src = (((uint64_t)b * tiling.ci + ic) * tiling.hi + ih) * tiling.wi;
                    uint64_t wBase = (((uint64_t)ic * tiling.coPerGroup + ocl) * tiling.kh + kr) * tiling.kw;
                    CopyIn(src);
                    Compute(acc, wBase);
                }
            }
            CopyOut(row, oc, acc);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t src)
    {
        LocalTensor<T> stage = stageQue.AllocTensor<T>();
        for (uint32_t t = 0; t < tiling.kw; ++t) {
            if (tapHi[t] <= tapLo[t]) {
                continue;
            }
            DataCopyExtParams cp{1, (uint32_t)((tapHi[t] - tapLo[t]) * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{tapLo[t] > 0, (uint8_t)tapLo[t], 0, (T)0};
            DataCopyPad(stage[t * tiling.laneLen], xGm[src + tapSrc[t]], cp, pad);
        }
        stageQue.EnQue(stage);
    }

    __aicore__ inline void Compute(LocalTensor<float> &acc, uint64_t wBase)
    {
        LocalTensor<T> stage = stageQue.DeQue<T>();
        LocalTensor<float> wide;
        if constexpr (std::is_same<T, float>::value) {
            wide = stage;
        } else {
            wide = wideBuf.Get<float>();
            Cast(wide, stage, RoundMode::CAST_NONE, tiling.kw * tiling.laneLen);
            PipeBarrier<PIPE_V>();
        }
        for (uint32_t t = 0; t < tiling.kw; ++t) {
            if (tapHi[t] <= tapLo[t]) {
                continue;
            }
            float coef = (float)fGm.GetValue(wBase + t);
            Axpy(acc[tapPhase[t] * tiling.laneLen], wide[t * tiling.laneLen], coef, (uint32_t)tapHi[t]);
            // taps sharing a phase update the same accumulator lanes
            PipeBarrier<PIPE_V>();
        }
        stageQue.FreeTensor(stage);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t oc, LocalTensor<float> &acc)
    {
        const uint32_t wo = tiling.wo;
        LocalTensor<float> res = rowBuf.Get<float>();
        if (tiling.sw == 1) {
            Adds(res, acc, 0.0f, wo);
        } else {
            Gather(res, acc, posBuf.Get<uint32_t>(), 0U, wo);
        }
        PipeBarrier<PIPE_V>();
        if (tiling.withBias) {
            Adds(res, res, (float)bGm.GetValue(oc), wo);
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<T> yl = yQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            Adds(yl, res, 0.0f, wo);
        } else {
            Cast(yl, res, RoundMode::CAST_ROUND, wo);
        }
        yQue.EnQue(yl);
        yl = yQue.DeQue<T>();
        DataCopyExtParams cp{1, (uint32_t)(wo * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)row * wo], yl, cp);
        yQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUF_CNT> stageQue;
    TQue<QuePosition::VECOUT, BUF_CNT> yQue;
    TBuf<TPosition::VECCALC> wideBuf, accBuf, rowBuf, posBuf;
    GlobalTensor<T> xGm, fGm, bGm, yGm;
    StridedUpconv2dTilingData tiling;
    uint32_t firstRow = 0, myRows = 0;
    int32_t tapPhase[MAX_TAPS];
    int32_t tapLo[MAX_TAPS];
    int32_t tapHi[MAX_TAPS];
    int32_t tapSrc[MAX_TAPS];
};

extern "C" __global__ __aicore__ void strided_upconv2d(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    StridedUpconv2dKernel<DTYPE_X> op;
    op.Init(x, filter, bias, y, td);
    op.Process();
}
