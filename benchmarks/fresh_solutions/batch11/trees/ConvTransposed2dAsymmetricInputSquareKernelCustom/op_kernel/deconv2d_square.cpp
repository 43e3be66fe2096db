/**
 * Deconv2dSquare - 2-D transposed convolution with a KxK kernel.
 *
 *   y[n, co, oh, ow] = b[co] + sum_{ci in group(co), kh, kw}
 *                      x[n, ci, ih, iw] * w[ci, co % CoutG, kh, kw]
 *   where oh = ih * s - p + kh and ow = iw * s - p + kw.
 *
 * The kernel works in "gather" form. A work unit is one output row segment
 * (n, channel block, oh, ow-tile). For every input channel ci and every kh with an
 * integral source row ih = (oh + p - kh) / s, the needed input columns are staged
 * in UB and expanded into K column-shifted rows:
 *     shifted[kw][j] = x[ci, ih, (ow0 + j + p - kw) / s]   (0 when not integral / OOB)
 * so that each (co, kw) contribution is a single aligned Axpy on the accumulator.
 * The weight block for (group, channel block) stays resident in UB while the units
 * of that block are processed.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class Deconv2dSquareKernel {
public:
    __aicore__ inline Deconv2dSquareKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const Deconv2dSquareTilingData& td)
    {
        t_ = td;
        cinG_ = t_.inC / t_.groups;
        coutG_ = t_.outC / t_.groups;
        uint32_t id = GetBlockIdx();
        unitCnt_ = t_.unitsPerCore + (id < t_.unitsExtra ? 1 : 0);
        unitBeg_ = id * t_.unitsPerCore + (id < t_.unitsExtra ? id : t_.unitsExtra);

        xGm_.SetGlobalBuffer((__gm__ T*)x);
        wGm_.SetGlobalBuffer((__gm__ T*)w);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        if (t_.hasBias) {
            bGm_.SetGlobalBuffer((__gm__ T*)b);
        }

        pipe_.InitBuffer(accBuf_, t_.coBlock * t_.owTile * sizeof(float));
        pipe_.InitBuffer(shiftBuf_, t_.kSize * t_.owTile * sizeof(float));
        pipe_.InitBuffer(segQue_, 1, t_.segMax * sizeof(T));
        pipe_.InitBuffer(segF_, t_.segMax * sizeof(float));
        pipe_.InitBuffer(wQue_, 1, cinG_ * t_.wPitch * sizeof(T));
        pipe_.InitBuffer(wF_, cinG_ * t_.wPitch * sizeof(float));
        pipe_.InitBuffer(outQue_, 2, t_.owTile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint32_t rowsPerBlock = t_.outH * t_.owTiles;
        uint32_t loadedBlock = 0xFFFFFFFFu;
        for (uint32_t u = unitBeg_; u < unitBeg_ + unitCnt_; ++u) {
            uint32_t blk = u / rowsPerBlock;         // (n, g, cb)
            uint32_t rem = u % rowsPerBlock;
            uint32_t oh = rem / t_.owTiles;
            uint32_t tIdx = rem % t_.owTiles;

            uint32_t cb = blk % t_.coBlocksPerGroup;
            uint32_t ng = blk / t_.coBlocksPerGroup;
            uint32_t g = ng % t_.groups;
            uint32_t n = ng / t_.groups;
            uint32_t coLocal0 = cb * t_.coBlock;
            uint32_t coCnt = (coutG_ - coLocal0) < t_.coBlock ? (coutG_ - coLocal0) : t_.coBlock;

            uint32_t wKey = g * t_.coBlocksPerGroup + cb;
            if (wKey != loadedBlock) {
                LoadWeights(g, coLocal0, coCnt);
                loadedBlock = wKey;
            }
            uint32_t ow0 = tIdx * t_.owTile;
            uint32_t len = (t_.outW - ow0) < t_.owTile ? (t_.outW - ow0) : t_.owTile;
            ComputeRow(n, g, coLocal0, coCnt, oh, ow0, len);
        }
    }

private:
    // weight block: rows ci (group-local), each row = coCnt*K*K values, padded to wPitch
    __aicore__ inline void LoadWeights(uint32_t g, uint32_t coLocal0, uint32_t coCnt)
    {
        uint32_t kk = t_.kSize * t_.kSize;
        LocalTensor<T> wl = wQue_.AllocTensor<T>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(cinG_);
        cp.blockLen = coCnt * kk * sizeof(T);
        cp.srcStride = (coutG_ - coCnt) * kk * sizeof(T);
        cp.dstStride = (t_.wPitch * sizeof(T) - AlignBytes(coCnt * kk * sizeof(T))) / 32;
        cp.rsv = 0;
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        uint64_t src = (uint64_t)(g * cinG_) * coutG_ * kk + (uint64_t)coLocal0 * kk;
        DataCopyPad(wl, wGm_[src], cp, pad);
        wQue_.EnQue(wl);
        wl = wQue_.DeQue<T>();
        LocalTensor<float> wf = wF_.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(wf, wl, cinG_ * t_.wPitch);
        } else {
            Cast(wf, wl, RoundMode::CAST_NONE, cinG_ * t_.wPitch);
        }
        wQue_.FreeTensor(wl);
        // weights are read back by the scalar unit
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    __aicore__ inline uint32_t AlignBytes(uint32_t b) { return (b + 31) / 32 * 32; }

    __aicore__ inline void ComputeRow(uint32_t n, uint32_t g, uint32_t coLocal0, uint32_t coCnt,
                                      uint32_t oh, uint32_t ow0, uint32_t len)
    {
        const uint32_t K = t_.kSize;
        const int32_t s = static_cast<int32_t>(t_.stride);
        const int32_t p = static_cast<int32_t>(t_.pad);
        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> wf = wF_.Get<float>();

        // Initialise accumulators with the bias (or zero).
        for (uint32_t c = 0; c < coCnt; ++c) {
            float bv = 0.0f;
            if (t_.hasBias) {
                bv = ToFloat(bGm_.GetValue(g * coutG_ + coLocal0 + c));
            }
            Duplicate(acc[c * t_.owTile], bv, t_.owTile);
        }

        // Input column window touched by this tile: p = ow + pad - kw
        int32_t pLo = static_cast<int32_t>(ow0) + p - static_cast<int32_t>(K - 1);
        int32_t pHi = static_cast<int32_t>(ow0 + len - 1) + p;
        int32_t iwLo = pLo <= 0 ? 0 : (pLo + s - 1) / s;
        int32_t iwHi = pHi < 0 ? -1 : pHi / s;
        if (iwHi > static_cast<int32_t>(t_.inW) - 1) {
            iwHi = static_cast<int32_t>(t_.inW) - 1;
        }

        if (iwHi >= iwLo) {
            uint32_t segLen = static_cast<uint32_t>(iwHi - iwLo + 1);
            for (uint32_t kh = 0; kh < K; ++kh) {
                int32_t num = static_cast<int32_t>(oh) + p - static_cast<int32_t>(kh);
                if (num < 0 || num % s != 0) {
                    continue;
                }
                int32_t ih = num / s;
                if (ih >= static_cast<int32_t>(t_.inH)) {
                    continue;
                }
                for (uint32_t cl = 0; cl < cinG_; ++cl) {
                    uint32_t ci = g * cinG_ + cl;
                    uint64_t rowOff = (((uint64_t)n * t_.inC + ci) * t_.inH + ih) * t_.inW + iwLo;
                    StageSegment(rowOff, segLen);
                    BuildShifted(ow0, len, iwLo, segLen);
                    LocalTensor<float> sh = shiftBuf_.Get<float>();
                    uint32_t wRow = cl * t_.wPitch;
                    for (uint32_t c = 0; c < coCnt; ++c) {
                        uint32_t wBase = wRow + c * K * K + kh * K;
                        for (uint32_t kw = 0; kw < K; ++kw) {
                            float wv = wf.GetValue(wBase + kw);
                            Axpy(acc[c * t_.owTile], sh[kw * t_.owTile], wv, len);
                        }
                    }
                    PipeBarrier<PIPE_V>();
                }
            }
        }

        // Write out the coCnt rows of this tile.
        for (uint32_t c = 0; c < coCnt; ++c) {
            LocalTensor<T> o = outQue_.AllocTensor<T>();
            if constexpr (IsSameType<T, float>::value) {
                DataCopy(o, acc[c * t_.owTile], t_.owTile);
            } else {
                Cast(o, acc[c * t_.owTile], RoundMode::CAST_ROUND, t_.owTile);
            }
            outQue_.EnQue(o);
            o = outQue_.DeQue<T>();
            uint32_t co = g * coutG_ + coLocal0 + c;
            uint64_t dst = (((uint64_t)n * t_.outC + co) * t_.outH + oh) * t_.outW + ow0;
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm_[dst], o, cp);
            outQue_.FreeTensor(o);
        }
    }

    // Copy x[rowOff : rowOff + segLen] into segF_ as float.
    __aicore__ inline void StageSegment(uint64_t rowOff, uint32_t segLen)
    {
        LocalTensor<T> seg = segQue_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(segLen * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(seg, xGm_[rowOff], cp, pad);
        segQue_.EnQue(seg);
        seg = segQue_.DeQue<T>();
        LocalTensor<float> sf = segF_.Get<float>();
        uint32_t alignedLen = (segLen + 15) / 16 * 16;
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(sf, seg, alignedLen);
        } else {
            Cast(sf, seg, RoundMode::CAST_NONE, alignedLen);
        }
        segQue_.FreeTensor(seg);
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    // shifted[kw][j] = x[iw] with iw*s == ow0 + j + pad - kw, else 0.
    __aicore__ inline void BuildShifted(uint32_t ow0, uint32_t len, int32_t iwLo, uint32_t segLen)
    {
        const int32_t s = static_cast<int32_t>(t_.stride);
        LocalTensor<float> sf = segF_.Get<float>();
        LocalTensor<float> sh = shiftBuf_.Get<float>();
        for (uint32_t kw = 0; kw < t_.kSize; ++kw) {
            uint32_t base = kw * t_.owTile;
            int32_t pos0 = static_cast<int32_t>(ow0) + static_cast<int32_t>(t_.pad) - static_cast<int32_t>(kw);
            for (uint32_t j = 0; j < len; ++j) {
                int32_t pos = pos0 + static_cast<int32_t>(j);
                float v = 0.0f;
                if (pos >= 0 && pos % s == 0) {
                    int32_t rel = pos / s - iwLo;
                    if (rel >= 0 && rel < static_cast<int32_t>(segLen)) {
                        v = sf.GetValue(rel);
                    }
                }
                sh.SetValue(base + j, v);
            }
        }
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline float ToFloat(T v)
    {
        if constexpr (IsSameType<T, float>::value) {
            return v;
        } else {
            return static_cast<float>(v);
        }
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> accBuf_, shiftBuf_, segF_, wF_;
    TQue<QuePosition::VECIN, 1> segQue_, wQue_;
    TQue<QuePosition::VECOUT, 2> outQue_;
    GlobalTensor<T> xGm_, wGm_, bGm_, yGm_;
    Deconv2dSquareTilingData t_;
    uint32_t cinG_ = 0, coutG_ = 0;
    uint32_t unitBeg_ = 0, unitCnt_ = 0;
};

extern "C" __global__ __aicore__ void deconv2d_square(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        Deconv2dSquareKernel<float> op;
        op.Init(x, weight, bias, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        Deconv2dSquareKernel<half> op;
        op.Init(x, weight, bias, y, td);
        op.Process();
    }
}
