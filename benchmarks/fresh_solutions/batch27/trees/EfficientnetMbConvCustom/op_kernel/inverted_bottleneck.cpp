// Mobile inverted bottleneck block, forward with batch-statistics BatchNorm.
//
//   e = Wexp  * x                    (1x1, in -> hid)         phase 1, stats of e
//   a = relu6(bn1(e))
//   d = depthwise_k(a, stride, pad)                           phase 2, stats of d
//   b = relu6(bn2(d))
//   p = Wproj * b                    (1x1, hid -> out)        phase 3, stats of p
//   y = bn3(p) (+ x)                                          phase 4
//
// Every BatchNorm needs statistics over the whole batch, so the phases are separated
// by all-core barriers. Each core accumulates (sum, sumsq) per channel for the work it
// did and publishes one partial row; after the barrier every core folds all partial
// rows into a per-channel multiplier / offset (gamma*invstd, beta - mean*gamma*invstd),
// which is then applied on the fly while the next phase reads its input.

#include "kernel_operator.h"
#include "inverted_bottleneck_tiling.h"

using namespace AscendC;

namespace {
template <HardEvent EVT>
__aicore__ inline void WaitPipe()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    SetFlag<EVT>(id);
    WaitFlag<EVT>(id);
}

__aicore__ inline uint32_t Align8(uint32_t v)
{
    return (v + 7) / 8 * 8;
}

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

constexpr uint32_t REDUCE_LANES = 64;      // floats folded per WholeReduceSum repeat
constexpr uint32_t MAX_REPEAT = 240;
constexpr float RELU6_CAP = 6.0f;
} // namespace

class InvertedBottleneckKernel {
public:
    __aicore__ inline InvertedBottleneckKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wExp, GM_ADDR g1, GM_ADDR b1, GM_ADDR wDw, GM_ADDR g2,
                                GM_ADDR b2, GM_ADDR wProj, GM_ADDR g3, GM_ADDR b3, GM_ADDR y, GM_ADDR ws,
                                const InvertedBottleneckTiling &t)
    {
        t_ = t;
        inPlane_ = t.inH * t.inW;
        outPlane_ = t.outH * t.outW;
        taps_ = t.ksize * t.ksize;
        const uint64_t n = t.batch;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n * t.inChannels * inPlane_);
        wExpGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(wExp), t.hidChannels * t.inChannels);
        wDwGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(wDw), t.hidChannels * taps_);
        wProjGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(wProj), t.outChannels * t.hidChannels);
        g1Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(g1), t.hidChannels);
        b1Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b1), t.hidChannels);
        g2Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(g2), t.hidChannels);
        b2Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b2), t.hidChannels);
        g3Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(g3), t.outChannels);
        b3Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b3), t.outChannels);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n * t.outChannels * outPlane_);
        wsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(ws));

        coreIdx_ = GetBlockIdx();
        coreNum_ = GetBlockNum();
    }

    __aicore__ inline void Process()
    {
        ExpandPhase();
        SyncAll();
        DepthwisePhase();
        SyncAll();
        ProjectPhase();
        SyncAll();
        NormalizePhase();
    }

private:
    // ------------------------------------------------------------------ helpers
    // rows x tile block in UB (row pitch = tile, tile multiple of 64): add per-row
    // sum and sum of squares to stat[chBase + r] and stat[statHalf + chBase + r].
    __aicore__ inline void AccumulateRowStats(const LocalTensor<float> &blk, const LocalTensor<float> &sq,
                                              const LocalTensor<float> &red, const LocalTensor<float> &stat,
                                              uint32_t rows, uint32_t tile, uint32_t chBase, uint32_t statHalf)
    {
        const uint32_t perRow = tile / REDUCE_LANES;
        const uint32_t total = rows * perRow;
        const uint32_t sqBase = Align8(total);
        Mul(sq, blk, blk, rows * tile);
        for (uint32_t s = 0; s < total; s += MAX_REPEAT) {
            uint32_t rep = total - s < MAX_REPEAT ? total - s : MAX_REPEAT;
            WholeReduceSum(red[s], blk[s * REDUCE_LANES], REDUCE_LANES, rep, 1, 1, 8);
            WholeReduceSum(red[sqBase + s], sq[s * REDUCE_LANES], REDUCE_LANES, rep, 1, 1, 8);
        }
        WaitPipe<HardEvent::V_S>();
        for (uint32_t r = 0; r < rows; ++r) {
            float s1 = 0.0f;
            float s2 = 0.0f;
            for (uint32_t j = 0; j < perRow; ++j) {
                s1 += red.GetValue(r * perRow + j);
                s2 += red.GetValue(sqBase + r * perRow + j);
            }
            stat.SetValue(chBase + r, stat.GetValue(chBase + r) + s1);
            stat.SetValue(statHalf + chBase + r, stat.GetValue(statHalf + chBase + r) + s2);
        }
        WaitPipe<HardEvent::S_V>();
    }

    // stat layout: sums in [0, C), sums of squares in [align8(C), align8(C) + C)
    __aicore__ inline void PublishStats(const LocalTensor<float> &stat, uint32_t channels, uint64_t off,
                                        uint32_t pitch)
    {
        WaitPipe<HardEvent::S_MTE3>();
        WaitPipe<HardEvent::V_MTE3>();
        DataCopyExtParams p{1, static_cast<uint32_t>(2 * Align8(channels) * sizeof(float)), 0, 0, 0};
        DataCopyPad(wsGm_[off + static_cast<uint64_t>(coreIdx_) * pitch], stat, p);
        WaitPipe<HardEvent::MTE3_S>();
    }

    // Fold every core's partial (sum, sumsq) into mul = gamma*invstd, add = beta - mean*mul.
    // scratch: total[2*align8(C)] | part[2*align8(C)] | tmp[align8(C)]
    __aicore__ inline void FoldStats(uint64_t off, uint32_t pitch, uint32_t channels, float count,
                                     GlobalTensor<float> &gamma, GlobalTensor<float> &beta,
                                     const LocalTensor<float> &mul, const LocalTensor<float> &add,
                                     const LocalTensor<float> &scratch)
    {
        const uint32_t cA = Align8(channels);
        LocalTensor<float> total = scratch;
        LocalTensor<float> part = scratch[2 * cA];
        LocalTensor<float> tmp = scratch[4 * cA];
        LocalTensor<float> mean = total;
        LocalTensor<float> var = total[cA];
        DataCopyExtParams rowP{1, static_cast<uint32_t>(2 * cA * sizeof(float)), 0, 0, 0};
        DataCopyExtParams chP{1, static_cast<uint32_t>(channels * sizeof(float)), 0, 0, 0};

        Duplicate(total, 0.0f, 2 * cA);
        for (uint32_t v = 0; v < coreNum_; ++v) {
            WaitPipe<HardEvent::V_MTE2>();
            DataCopyPad(part, wsGm_[off + static_cast<uint64_t>(v) * pitch], rowP,
                        DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            WaitPipe<HardEvent::MTE2_V>();
            Add(total, total, part, 2 * cA);
        }
        const float inv = 1.0f / count;
        Muls(mean, mean, inv, channels);                   // E[x]
        Muls(var, var, inv, channels);                     // E[x^2]
        Mul(tmp, mean, mean, channels);
        Sub(var, var, tmp, channels);                      // biased variance
        Maxs(var, var, 0.0f, channels);
        Adds(var, var, t_.eps, channels);
        Sqrt(var, var, channels);
        Duplicate(tmp, 1.0f, channels);
        Div(tmp, tmp, var, channels);                      // 1 / sqrt(var + eps)

        WaitPipe<HardEvent::V_MTE2>();
        DataCopyPad(mul, gamma, chP, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        DataCopyPad(add, beta, chP, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        WaitPipe<HardEvent::MTE2_V>();
        Mul(mul, mul, tmp, channels);                      // gamma * invstd
        Mul(tmp, mean, mul, channels);
        Sub(add, add, tmp, channels);                      // beta - mean * gamma * invstd
        WaitPipe<HardEvent::V_S>();
    }

    __aicore__ inline void ApplyBnRelu6(const LocalTensor<float> &v, float m, float a, uint32_t len)
    {
        Muls(v, v, m, len);
        Adds(v, v, a, len);
        Maxs(v, v, 0.0f, len);
        Mins(v, v, RELU6_CAP, len);
    }

    // ------------------------------------------------------------------ phase 1
    __aicore__ inline void ExpandPhase()
    {
        const uint32_t tp = t_.expTile;
        const uint32_t ci = t_.inChannels;
        const uint32_t ch = t_.hidChannels;
        const uint32_t occMax = t_.expChanChunk;
        TBuf<TPosition::VECCALC> statBuf, sqBuf, redBuf;
        TQue<QuePosition::VECIN, 1> xQue;
        TQue<QuePosition::VECIN, 2> wQue;
        TQue<QuePosition::VECOUT, 2> accQue;
        pipe_.InitBuffer(statBuf, 2 * Align8(ch) * sizeof(float));
        pipe_.InitBuffer(sqBuf, occMax * tp * sizeof(float));
        pipe_.InitBuffer(redBuf, 2 * Align8(occMax * tp / REDUCE_LANES) * sizeof(float));
        pipe_.InitBuffer(xQue, 1, ci * tp * sizeof(float));
        pipe_.InitBuffer(wQue, 2, Align8(occMax * ci) * sizeof(float));
        pipe_.InitBuffer(accQue, 2, occMax * tp * sizeof(float));

        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        Duplicate(stat, 0.0f, 2 * Align8(ch));
        WaitPipe<HardEvent::V_S>();

        const uint32_t tilesPerImg = CeilDiv(inPlane_, tp);
        const uint32_t units = t_.batch * tilesPerImg;
        for (uint32_t u = coreIdx_; u < units; u += coreNum_) {
            uint32_t n = u / tilesPerImg;
            uint32_t p0 = (u % tilesPerImg) * tp;
            uint32_t len = inPlane_ - p0 < tp ? inPlane_ - p0 : tp;

            LocalTensor<float> xl = xQue.AllocTensor<float>();
            DataCopyExtParams xp;
            xp.blockCount = static_cast<uint16_t>(ci);
            xp.blockLen = len * sizeof(float);
            xp.srcStride = (inPlane_ - len) * sizeof(float);
            xp.dstStride = (tp - Align8(len)) / 8;
            xp.rsv = 0;
            DataCopyPad(xl, xGm_[static_cast<uint64_t>(n) * ci * inPlane_ + p0], xp,
                        DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            xQue.EnQue(xl);
            xl = xQue.DeQue<float>();

            for (uint32_t o0 = 0; o0 < ch; o0 += occMax) {
                uint32_t occ = ch - o0 < occMax ? ch - o0 : occMax;
                LocalTensor<float> wl = wQue.AllocTensor<float>();
                DataCopyExtParams wp{1, static_cast<uint32_t>(occ * ci * sizeof(float)), 0, 0, 0};
                DataCopyPad(wl, wExpGm_[o0 * ci], wp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                wQue.EnQue(wl);
                wl = wQue.DeQue<float>();
                WaitPipe<HardEvent::MTE2_S>();

                LocalTensor<float> acc = accQue.AllocTensor<float>();
                Duplicate(acc, 0.0f, occ * tp);   // lanes past len stay zero for the statistics
                for (uint32_t o = 0; o < occ; ++o) {
                    LocalTensor<float> dst = acc[o * tp];
                    for (uint32_t c = 0; c < ci; ++c) {
                        Axpy(dst, xl[c * tp], wl.GetValue(o * ci + c), len);
                    }
                }
                wQue.FreeTensor(wl);
                AccumulateRowStats(acc, sq, red, stat, occ, tp, o0, Align8(ch));

                accQue.EnQue(acc);
                acc = accQue.DeQue<float>();
                DataCopyExtParams op;
                op.blockCount = static_cast<uint16_t>(occ);
                op.blockLen = len * sizeof(float);
                op.srcStride = (tp - Align8(len)) / 8;
                op.dstStride = (inPlane_ - len) * sizeof(float);
                op.rsv = 0;
                uint64_t dst = t_.expandOff + (static_cast<uint64_t>(n) * ch + o0) * inPlane_ + p0;
                DataCopyPad(wsGm_[dst], acc, op);
                accQue.FreeTensor(acc);
            }
            xQue.FreeTensor(xl);
        }
        PublishStats(stat, ch, t_.stat1Off, t_.statPitch1);
        pipe_.Reset();
    }

    // ------------------------------------------------------------------ phase 2
    __aicore__ inline void DepthwisePhase()
    {
        const uint32_t ch = t_.hidChannels;
        const uint32_t inW = t_.inW;
        const uint32_t outW = t_.outW;
        const uint32_t outWA = Align8(outW);
        const uint32_t pitch = t_.dwRowPitch;
        const uint32_t zeroLane = Align8(inW);
        const uint32_t stripIn = (t_.dwStripRows - 1) * t_.stride + t_.ksize;

        TBuf<TPosition::VECCALC> mulBuf, addBuf, scratchBuf, statBuf, wBuf, tabBuf, laneBuf, sumBuf, workBuf;
        TQue<QuePosition::VECIN, 2> stripQue;
        TQue<QuePosition::VECOUT, 2> outQue;
        pipe_.InitBuffer(mulBuf, Align8(ch) * sizeof(float));
        pipe_.InitBuffer(addBuf, Align8(ch) * sizeof(float));
        pipe_.InitBuffer(scratchBuf, 5 * Align8(ch) * sizeof(float));
        pipe_.InitBuffer(statBuf, 2 * Align8(ch) * sizeof(float));
        pipe_.InitBuffer(wBuf, Align8(ch * taps_) * sizeof(float));
        pipe_.InitBuffer(tabBuf, t_.ksize * outWA * sizeof(uint32_t));
        pipe_.InitBuffer(laneBuf, 2 * outWA * sizeof(float));
        pipe_.InitBuffer(sumBuf, 2 * outWA * sizeof(float));
        pipe_.InitBuffer(workBuf, 2 * outWA * sizeof(float) + 64);
        pipe_.InitBuffer(stripQue, 2, stripIn * pitch * sizeof(float));
        pipe_.InitBuffer(outQue, 2, t_.dwStripRows * outWA * sizeof(float));

        LocalTensor<float> mul = mulBuf.Get<float>();
        LocalTensor<float> add = addBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<uint32_t> tab = tabBuf.Get<uint32_t>();
        LocalTensor<float> lanes = laneBuf.Get<float>();
        LocalTensor<float> sums = sumBuf.Get<float>();
        LocalTensor<float> sumV = sums;
        LocalTensor<float> sqV = sums[outWA];
        LocalTensor<float> work = workBuf.Get<float>();

        FoldStats(t_.stat1Off, t_.statPitch1, ch, static_cast<float>(t_.batch) * inPlane_, g1Gm_, b1Gm_, mul, add,
                  scratchBuf.Get<float>());

        DataCopyExtParams wp{1, static_cast<uint32_t>(ch * taps_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(wl, wDwGm_, wp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        Duplicate(stat, 0.0f, 2 * Align8(ch));
        // tab[kw][j]: byte offset of input column j*stride - pad + kw, or the zero lane
        for (uint32_t kw = 0; kw < t_.ksize; ++kw) {
            for (uint32_t j = 0; j < outWA; ++j) {
                int32_t iw = static_cast<int32_t>(j * t_.stride + kw) - static_cast<int32_t>(t_.pad);
                uint32_t lane = (j < outW && iw >= 0 && iw < static_cast<int32_t>(inW)) ? static_cast<uint32_t>(iw)
                                                                                         : zeroLane;
                tab.SetValue(kw * outWA + j, lane * static_cast<uint32_t>(sizeof(float)));
            }
        }
        WaitPipe<HardEvent::MTE2_S>();
        WaitPipe<HardEvent::S_V>();
        WaitPipe<HardEvent::V_S>();

        const uint32_t units = t_.batch * ch;
        uint32_t flip = 0;
        for (uint32_t u = coreIdx_; u < units; u += coreNum_) {
            const uint32_t n = u / ch;
            const uint32_t c = u % ch;
            const float m = mul.GetValue(c);
            const float a = add.GetValue(c);
            const uint64_t srcPlane = t_.expandOff + static_cast<uint64_t>(u) * inPlane_;
            const uint64_t dstPlane = t_.dwOff + static_cast<uint64_t>(u) * outPlane_;
            Duplicate(sumV, 0.0f, outWA);
            Duplicate(sqV, 0.0f, outWA);

            for (uint32_t oh0 = 0; oh0 < t_.outH; oh0 += t_.dwStripRows) {
                uint32_t rr = t_.outH - oh0 < t_.dwStripRows ? t_.outH - oh0 : t_.dwStripRows;
                int32_t rowBase = static_cast<int32_t>(oh0 * t_.stride) - static_cast<int32_t>(t_.pad);
                int32_t rowsNeed = static_cast<int32_t>((rr - 1) * t_.stride + t_.ksize);
                int32_t lo = rowBase < 0 ? 0 : rowBase;
                int32_t hi = rowBase + rowsNeed;
                if (hi > static_cast<int32_t>(t_.inH)) {
                    hi = static_cast<int32_t>(t_.inH);
                }

                LocalTensor<float> strip = stripQue.AllocTensor<float>();
                Duplicate(strip, 0.0f, static_cast<uint32_t>(rowsNeed) * pitch);   // padding rows + zero lanes
                WaitPipe<HardEvent::V_MTE2>();
                if (hi > lo) {
                    DataCopyExtParams sp;
                    sp.blockCount = static_cast<uint16_t>(hi - lo);
                    sp.blockLen = inW * sizeof(float);
                    sp.srcStride = 0;
                    sp.dstStride = (pitch - Align8(inW)) / 8;
                    sp.rsv = 0;
                    DataCopyPad(strip[static_cast<uint32_t>(lo - rowBase) * pitch],
                                wsGm_[srcPlane + static_cast<uint64_t>(lo) * inW], sp,
                                DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                }
                stripQue.EnQue(strip);
                strip = stripQue.DeQue<float>();
                // bn1 + relu6 on real rows only: padding must stay exactly zero
                for (int32_t r = lo; r < hi; ++r) {
                    ApplyBnRelu6(strip[static_cast<uint32_t>(r - rowBase) * pitch], m, a, inW);
                }

                LocalTensor<float> ob = outQue.AllocTensor<float>();
                for (uint32_t r = 0; r < rr; ++r) {
                    LocalTensor<float> orow = ob[r * outWA];
                    Duplicate(orow, 0.0f, outWA);
                    for (uint32_t kh = 0; kh < t_.ksize; ++kh) {
                        LocalTensor<float> src = strip[(r * t_.stride + kh) * pitch];
                        for (uint32_t kw = 0; kw < t_.ksize; ++kw) {
                            LocalTensor<float> lv = lanes[flip * outWA];
                            flip ^= 1;
                            Gather(lv, src, tab[kw * outWA], 0, outW);
                            Axpy(orow, lv, wl.GetValue(c * taps_ + kh * t_.ksize + kw), outW);
                        }
                    }
                    Add(sumV, sumV, orow, outW);
                    LocalTensor<float> lv = lanes[flip * outWA];
                    flip ^= 1;
                    Mul(lv, orow, orow, outW);
                    Add(sqV, sqV, lv, outW);
                }
                stripQue.FreeTensor(strip);

                outQue.EnQue(ob);
                ob = outQue.DeQue<float>();
                DataCopyExtParams op;
                op.blockCount = static_cast<uint16_t>(rr);
                op.blockLen = outW * sizeof(float);
                op.srcStride = (outWA - Align8(outW)) / 8;
                op.dstStride = 0;
                op.rsv = 0;
                DataCopyPad(wsGm_[dstPlane + static_cast<uint64_t>(oh0) * outW], ob, op);
                outQue.FreeTensor(ob);
            }
            ReduceSum(work, sumV, work[outWA], outW);
            ReduceSum(work[8], sqV, work[outWA], outW);
            WaitPipe<HardEvent::V_S>();
            stat.SetValue(c, stat.GetValue(c) + work.GetValue(0));
            stat.SetValue(Align8(ch) + c, stat.GetValue(Align8(ch) + c) + work.GetValue(8));
            WaitPipe<HardEvent::S_V>();
        }
        PublishStats(stat, ch, t_.stat2Off, t_.statPitch2);
        pipe_.Reset();
    }

    // ------------------------------------------------------------------ phase 3
    __aicore__ inline void ProjectPhase()
    {
        const uint32_t ch = t_.hidChannels;
        const uint32_t co = t_.outChannels;
        const uint32_t tp = t_.projTile;
        const uint32_t ccMax = t_.projChanChunk;
        const uint32_t wPitch = Align8(ccMax);

        TBuf<TPosition::VECCALC> mulBuf, addBuf, scratchBuf, statBuf, sqBuf, redBuf;
        TQue<QuePosition::VECIN, 2> blkQue;
        TQue<QuePosition::VECIN, 1> wQue;
        TQue<QuePosition::VECOUT, 1> accQue;
        pipe_.InitBuffer(mulBuf, Align8(ch) * sizeof(float));
        pipe_.InitBuffer(addBuf, Align8(ch) * sizeof(float));
        pipe_.InitBuffer(scratchBuf, 5 * Align8(ch) * sizeof(float));
        pipe_.InitBuffer(statBuf, 2 * Align8(co) * sizeof(float));
        pipe_.InitBuffer(sqBuf, co * tp * sizeof(float));
        pipe_.InitBuffer(redBuf, 2 * Align8(co * tp / REDUCE_LANES) * sizeof(float));
        pipe_.InitBuffer(blkQue, 2, ccMax * tp * sizeof(float));
        pipe_.InitBuffer(wQue, 1, co * wPitch * sizeof(float));
        pipe_.InitBuffer(accQue, 1, co * tp * sizeof(float));

        LocalTensor<float> mul = mulBuf.Get<float>();
        LocalTensor<float> add = addBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();

        FoldStats(t_.stat2Off, t_.statPitch2, ch, static_cast<float>(t_.batch) * outPlane_, g2Gm_, b2Gm_, mul, add,
                  scratchBuf.Get<float>());
        Duplicate(stat, 0.0f, 2 * Align8(co));
        WaitPipe<HardEvent::V_S>();

        const uint32_t tilesPerImg = CeilDiv(outPlane_, tp);
        const uint32_t units = t_.batch * tilesPerImg;
        for (uint32_t u = coreIdx_; u < units; u += coreNum_) {
            const uint32_t n = u / tilesPerImg;
            const uint32_t p0 = (u % tilesPerImg) * tp;
            const uint32_t len = outPlane_ - p0 < tp ? outPlane_ - p0 : tp;

            LocalTensor<float> acc = accQue.AllocTensor<float>();
            Duplicate(acc, 0.0f, co * tp);
            for (uint32_t c0 = 0; c0 < ch; c0 += ccMax) {
                const uint32_t cc = ch - c0 < ccMax ? ch - c0 : ccMax;
                LocalTensor<float> blk = blkQue.AllocTensor<float>();
                DataCopyExtParams bp;
                bp.blockCount = static_cast<uint16_t>(cc);
                bp.blockLen = len * sizeof(float);
                bp.srcStride = (outPlane_ - len) * sizeof(float);
                bp.dstStride = (tp - Align8(len)) / 8;
                bp.rsv = 0;
                DataCopyPad(blk, wsGm_[t_.dwOff + (static_cast<uint64_t>(n) * ch + c0) * outPlane_ + p0], bp,
                            DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                blkQue.EnQue(blk);

                LocalTensor<float> wl = wQue.AllocTensor<float>();
                DataCopyExtParams wp;
                wp.blockCount = static_cast<uint16_t>(co);
                wp.blockLen = cc * sizeof(float);
                wp.srcStride = (ch - cc) * sizeof(float);
                wp.dstStride = (wPitch - Align8(cc)) / 8;
                wp.rsv = 0;
                DataCopyPad(wl, wProjGm_[c0], wp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                wQue.EnQue(wl);

                blk = blkQue.DeQue<float>();
                wl = wQue.DeQue<float>();
                WaitPipe<HardEvent::MTE2_S>();
                for (uint32_t c = 0; c < cc; ++c) {
                    ApplyBnRelu6(blk[c * tp], mul.GetValue(c0 + c), add.GetValue(c0 + c), len);
                }
                for (uint32_t o = 0; o < co; ++o) {
                    LocalTensor<float> dst = acc[o * tp];
                    for (uint32_t c = 0; c < cc; ++c) {
                        Axpy(dst, blk[c * tp], wl.GetValue(o * wPitch + c), len);
                    }
                }
                blkQue.FreeTensor(blk);
                wQue.FreeTensor(wl);
            }
            AccumulateRowStats(acc, sq, red, stat, co, tp, 0, Align8(co));

            accQue.EnQue(acc);
            acc = accQue.DeQue<float>();
            DataCopyExtParams op;
            op.blockCount = static_cast<uint16_t>(co);
            op.blockLen = len * sizeof(float);
            op.srcStride = (tp - Align8(len)) / 8;
            op.dstStride = (outPlane_ - len) * sizeof(float);
            op.rsv = 0;
            DataCopyPad(yGm_[static_cast<uint64_t>(n) * co * outPlane_ + p0], acc, op);
            accQue.FreeTensor(acc);
        }
        PublishStats(stat, co, t_.stat3Off, t_.statPitch3);
        pipe_.Reset();
    }

    // ------------------------------------------------------------------ phase 4
    __aicore__ inline void NormalizePhase()
    {
        const uint32_t co = t_.outChannels;
        const uint32_t chunk = t_.normChunk;
        const bool residual = t_.hasResidual != 0;

        TBuf<TPosition::VECCALC> mulBuf, addBuf, scratchBuf;
        TQue<QuePosition::VECIN, 2> inQue;
        TQue<QuePosition::VECIN, 2> resQue;
        TQue<QuePosition::VECOUT, 2> outQue;
        pipe_.InitBuffer(mulBuf, Align8(co) * sizeof(float));
        pipe_.InitBuffer(addBuf, Align8(co) * sizeof(float));
        pipe_.InitBuffer(scratchBuf, 5 * Align8(co) * sizeof(float));
        pipe_.InitBuffer(inQue, 2, chunk * sizeof(float));
        pipe_.InitBuffer(resQue, 2, chunk * sizeof(float));
        pipe_.InitBuffer(outQue, 2, chunk * sizeof(float));

        LocalTensor<float> mul = mulBuf.Get<float>();
        LocalTensor<float> add = addBuf.Get<float>();
        FoldStats(t_.stat3Off, t_.statPitch3, co, static_cast<float>(t_.batch) * outPlane_, g3Gm_, b3Gm_, mul, add,
                  scratchBuf.Get<float>());

        const uint32_t units = t_.batch * co;
        for (uint32_t u = coreIdx_; u < units; u += coreNum_) {
            const float m = mul.GetValue(u % co);
            const float a = add.GetValue(u % co);
            const uint64_t base = static_cast<uint64_t>(u) * outPlane_;
            // identity path only exists when shapes match: stride 1 and inChannels == outChannels
            const uint64_t resBase = static_cast<uint64_t>(u) * inPlane_;
            for (uint32_t q0 = 0; q0 < outPlane_; q0 += chunk) {
                const uint32_t len = outPlane_ - q0 < chunk ? outPlane_ - q0 : chunk;
                DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                LocalTensor<float> v = inQue.AllocTensor<float>();
                DataCopyPad(v, yGm_[base + q0], p, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                inQue.EnQue(v);
                if (residual) {
                    LocalTensor<float> r = resQue.AllocTensor<float>();
                    DataCopyPad(r, xGm_[resBase + q0], p, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                    resQue.EnQue(r);
                }
                v = inQue.DeQue<float>();
                LocalTensor<float> o = outQue.AllocTensor<float>();
                Muls(o, v, m, len);
                Adds(o, o, a, len);
                inQue.FreeTensor(v);
                if (residual) {
                    LocalTensor<float> r = resQue.DeQue<float>();
                    Add(o, o, r, len);
                    resQue.FreeTensor(r);
                }
                outQue.EnQue(o);
                o = outQue.DeQue<float>();
                DataCopyPad(yGm_[base + q0], o, p);
                outQue.FreeTensor(o);
            }
        }
        pipe_.Reset();
    }

private:
    TPipe pipe_;
    InvertedBottleneckTiling t_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> wExpGm_;
    GlobalTensor<float> wDwGm_;
    GlobalTensor<float> wProjGm_;
    GlobalTensor<float> g1Gm_;
    GlobalTensor<float> b1Gm_;
    GlobalTensor<float> g2Gm_;
    GlobalTensor<float> b2Gm_;
    GlobalTensor<float> g3Gm_;
    GlobalTensor<float> b3Gm_;
    GlobalTensor<float> yGm_;
    GlobalTensor<float> wsGm_;
    uint32_t inPlane_ = 0;
    uint32_t outPlane_ = 0;
    uint32_t taps_ = 0;
    uint32_t coreIdx_ = 0;
    uint32_t coreNum_ = 1;
};

extern "C" __global__ __aicore__ void inverted_bottleneck(GM_ADDR x, GM_ADDR expandWeight, GM_ADDR bn1Gamma,
                                                          GM_ADDR bn1Beta, GM_ADDR depthwiseWeight, GM_ADDR bn2Gamma,
                                                          GM_ADDR bn2Beta, GM_ADDR projectWeight, GM_ADDR bn3Gamma,
                                                          GM_ADDR bn3Beta, GM_ADDR y, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(InvertedBottleneckTiling);
    GET_TILING_DATA(tilingData, tiling);
    // vector cores only, with the hardware all-core barrier available
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    InvertedBottleneckKernel op;
    op.Init(x, expandWeight, bn1Gamma, bn1Beta, depthwiseWeight, bn2Gamma, bn2Beta, projectWeight, bn3Gamma, bn3Beta,
            y, userWs, tilingData);
    op.Process();
}
