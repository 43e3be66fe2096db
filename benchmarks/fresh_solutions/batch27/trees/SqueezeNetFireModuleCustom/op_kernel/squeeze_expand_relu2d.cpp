/**
 * @file squeeze_expand_relu2d.cpp
 * @brief Kernel of SqueezeExpandRelu2d (NCHW, fp32):
 *
 *   s = relu(Ws * x + bs)                       (1x1 conv, S channels)
 *   y[:, 0:E1]     = relu(W1 * s + b1)          (1x1 conv)
 *   y[:, E1:E1+E3] = relu(W3 (*) s + b3)        (3x3 conv, padding 1)
 *
 * One work unit = (image, band of output rows).
 *   Stage 1: squeeze rows [r0-1, r1+1) of the image into the core's private scratch in the
 *            workspace (per-channel row planes), ReLU applied, out-of-image halo rows skipped.
 *   Stage 2: for each block of concatenated output channels and every output row / column
 *            tile, stage the three neighbouring squeeze rows of every squeeze channel, Gather
 *            the three column taps (zero padded at the image border) and Axpy them into the
 *            accumulators of the 3x3 channels; the centre tap also feeds the 1x1 channels.
 *            ReLU and one strided DataCopyPad write the block into the concatenated output.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
constexpr uint32_t BLK = 8;
}

class SqueezeExpandRelu2dKernel {
public:
    __aicore__ inline SqueezeExpandRelu2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR sqw, GM_ADDR sqb, GM_ADDR e1w, GM_ADDR e1b, GM_ADDR e3w,
                                GM_ADDR e3b, GM_ADDR y, GM_ADDR workspace, const SqueezeExpandRelu2dTilingData& td)
    {
        n_ = td.batch; c_ = td.inC; h_ = td.height; w_ = td.width;
        s_ = td.sqC; e1_ = td.e1C; e3_ = td.e3C; outC_ = e1_ + e3_;
        band_ = td.bandRows; bandNum_ = td.bandNum;
        sqTile_ = td.sqTile; ciChunk_ = td.ciChunk; ciChunkA_ = td.ciChunkAligned;
        ocBlock_ = td.ocBlock; ocBlockNum_ = td.ocBlockNum;
        owTile_ = td.owTile; owTileNum_ = td.owTileNum; rowCap_ = td.rowCap;
        slotStride_ = (band_ + 2) * w_;

        const uint32_t core = GetBlockIdx();
        unitBegin_ = core * td.unitsPerCore + (core < td.unitsRemainder ? core : td.unitsRemainder);
        unitCount_ = td.unitsPerCore + (core < td.unitsRemainder ? 1 : 0);

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        sqwGm_.SetGlobalBuffer((__gm__ float*)sqw);
        sqbGm_.SetGlobalBuffer((__gm__ float*)sqb);
        e1wGm_.SetGlobalBuffer((__gm__ float*)e1w);
        e1bGm_.SetGlobalBuffer((__gm__ float*)e1b);
        e3wGm_.SetGlobalBuffer((__gm__ float*)e3w);
        e3bGm_.SetGlobalBuffer((__gm__ float*)e3b);
        yGm_.SetGlobalBuffer((__gm__ float*)y);
        GM_ADDR usr = GetUserWorkspace(workspace);
        scratchGm_.SetGlobalBuffer((__gm__ float*)usr + static_cast<uint64_t>(core) * td.scratchPerCore,
                                   td.scratchPerCore);

        // squeeze stage
        pipe_.InitBuffer(sqWBuf_, s_ * ciChunkA_ * sizeof(float));
        pipe_.InitBuffer(sqBBuf_, Align(s_) * sizeof(float));
        pipe_.InitBuffer(sqAccBuf_, s_ * sqTile_ * sizeof(float));
        pipe_.InitBuffer(xQue_, DEPTH, sqTile_ * sizeof(float));
        // expand stage
        pipe_.InitBuffer(w1Buf_, Align(ocBlock_ * s_) * sizeof(float));
        pipe_.InitBuffer(w3Buf_, Align(ocBlock_ * s_ * 9) * sizeof(float));
        pipe_.InitBuffer(b1Buf_, Align(ocBlock_) * sizeof(float));
        pipe_.InitBuffer(b3Buf_, Align(ocBlock_) * sizeof(float));
        pipe_.InitBuffer(accBuf_, ocBlock_ * owTile_ * sizeof(float));
        pipe_.InitBuffer(tapBuf_, owTile_ * sizeof(float));
        pipe_.InitBuffer(offBuf_, owTile_ * sizeof(int32_t));
        pipe_.InitBuffer(rowQue_, DEPTH, rowCap_ * sizeof(float));
        pipe_.InitBuffer(outQue_, DEPTH, ocBlock_ * owTile_ * sizeof(float));

        LocalTensor<int32_t> idx = offBuf_.Get<int32_t>();
        CreateVecIndex(idx, static_cast<int32_t>(0), owTile_);
        Muls(idx, idx, static_cast<int32_t>(sizeof(float)), owTile_);
        offsets_ = idx.ReinterpretCast<uint32_t>();

        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyExtParams bp{1, s_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(sqBBuf_.Get<float>(), sqbGm_, bp, noPad);
        if (ciChunk_ >= c_) {
            LoadSqueezeWeights(0, c_);   // all squeeze weights stay resident
        }
        Sync<HardEvent::MTE2_S>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < unitCount_; ++k) {
            const uint32_t u = unitBegin_ + k;
            const uint32_t n = u / bandNum_;
            const uint32_t r0 = (u % bandNum_) * band_;
            const uint32_t r1 = (r0 + band_ < h_) ? (r0 + band_) : h_;
            SqueezeBand(n, r0, r1);
            PipeBarrier<PIPE_ALL>();   // scratch written by MTE3 is read back by MTE2
            ExpandBand(n, r0, r1);
            PipeBarrier<PIPE_ALL>();   // next unit overwrites the scratch
        }
    }

private:
    __aicore__ inline uint32_t Align(uint32_t v) const { return (v + BLK - 1) / BLK * BLK; }

    template <HardEvent EVT>
    __aicore__ inline void Sync()
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
        SetFlag<EVT>(e);
        WaitFlag<EVT>(e);
    }

    __aicore__ inline void LoadSqueezeWeights(uint32_t ci0, uint32_t cnt)
    {
        // squeeze_weight[s, ci]: S bursts of cnt floats, row pitch C in GM, ciChunkA in UB
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyExtParams cp{static_cast<uint16_t>(s_), cnt * static_cast<uint32_t>(sizeof(float)),
                             (c_ - cnt) * static_cast<uint32_t>(sizeof(float)), (ciChunkA_ - Align(cnt)) / BLK, 0};
        DataCopyPad(sqWBuf_.Get<float>(), sqwGm_[ci0], cp, noPad);
    }

    // ---------------- stage 1: squeeze ----------------
    __aicore__ inline void SqueezeBand(uint32_t n, uint32_t r0, uint32_t r1)
    {
        const uint32_t rBegin = (r0 > 0) ? r0 - 1 : 0;
        const uint32_t rEnd = (r1 + 1 < h_) ? r1 + 1 : h_;
        LocalTensor<float> acc = sqAccBuf_.Get<float>();
        LocalTensor<float> wLocal = sqWBuf_.Get<float>();
        LocalTensor<float> bLocal = sqBBuf_.Get<float>();
        const bool chunked = ciChunk_ < c_;

        for (uint32_t r = rBegin; r < rEnd; ++r) {
            const uint32_t slot = r + 1 - r0;   // slot 0 holds row r0-1
            for (uint32_t c0 = 0; c0 < w_; c0 += sqTile_) {
                const uint32_t cl = (w_ - c0 < sqTile_) ? (w_ - c0) : sqTile_;
                for (uint32_t sc = 0; sc < s_; ++sc) {
                    Duplicate(acc[sc * sqTile_], bLocal.GetValue(sc), cl);
                }
                for (uint32_t ci0 = 0; ci0 < c_; ci0 += ciChunk_) {
                    const uint32_t cnt = (c_ - ci0 < ciChunk_) ? (c_ - ci0) : ciChunk_;
                    if (chunked) {
                        Sync<HardEvent::S_MTE2>();
                        LoadSqueezeWeights(ci0, cnt);
                        Sync<HardEvent::MTE2_S>();
                    }
                    for (uint32_t ci = 0; ci < cnt; ++ci) {
                        LocalTensor<float> xr = xQue_.AllocTensor<float>();
                        const uint64_t src = ((static_cast<uint64_t>(n) * c_ + ci0 + ci) * h_ + r) * w_ + c0;
                        DataCopyExtParams cp{1, cl * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
                        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
                        DataCopyPad(xr, xGm_[src], cp, noPad);
                        xQue_.EnQue(xr);
                        xr = xQue_.DeQue<float>();
                        for (uint32_t sc = 0; sc < s_; ++sc) {
                            Axpy(acc[sc * sqTile_], xr, wLocal.GetValue(sc * ciChunkA_ + ci), cl);
                        }
                        xQue_.FreeTensor(xr);
                    }
                }
                Relu(acc, acc, s_ * sqTile_);
                Sync<HardEvent::V_MTE3>();
                DataCopyExtParams op{static_cast<uint16_t>(s_), cl * static_cast<uint32_t>(sizeof(float)),
                                     (sqTile_ - Align(cl)) / BLK,
                                     (slotStride_ - cl) * static_cast<uint32_t>(sizeof(float)), 0};
                DataCopyPad(scratchGm_[slot * w_ + c0], acc, op);
                Sync<HardEvent::MTE3_V>();
            }
        }
    }

    // ---------------- stage 2: expand ----------------
    __aicore__ inline void LoadExpandBlock(uint32_t ob)
    {
        cBase_ = ob * ocBlock_;
        const uint32_t cnt = (outC_ - cBase_ < ocBlock_) ? (outC_ - cBase_) : ocBlock_;
        n1_ = (cBase_ < e1_) ? ((e1_ - cBase_ < cnt) ? (e1_ - cBase_) : cnt) : 0;
        n3_ = cnt - n1_;
        const uint32_t e3First = cBase_ + n1_ - e1_;   // valid only when n3_ > 0
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        if (n1_ > 0) {
            DataCopyExtParams wp{1, n1_ * s_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(w1Buf_.Get<float>(), e1wGm_[static_cast<uint64_t>(cBase_) * s_], wp, noPad);
            DataCopyExtParams bp{1, n1_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(b1Buf_.Get<float>(), e1bGm_[cBase_], bp, noPad);
        }
        if (n3_ > 0) {
            DataCopyExtParams wp{1, n3_ * s_ * 9 * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(w3Buf_.Get<float>(), e3wGm_[static_cast<uint64_t>(e3First) * s_ * 9], wp, noPad);
            DataCopyExtParams bp{1, n3_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(b3Buf_.Get<float>(), e3bGm_[e3First], bp, noPad);
        }
        Sync<HardEvent::MTE2_S>();
    }

    __aicore__ inline void ExpandBand(uint32_t n, uint32_t r0, uint32_t r1)
    {
        for (uint32_t ob = 0; ob < ocBlockNum_; ++ob) {
            if (static_cast<int64_t>(ob) != loadedBlock_) {
                LoadExpandBlock(ob);
                loadedBlock_ = ob;
            }
            for (uint32_t oh = r0; oh < r1; ++oh) {
                for (uint32_t t = 0; t < owTileNum_; ++t) {
                    ExpandTile(n, r0, oh, t);
                }
            }
        }
    }

    __aicore__ inline void ExpandTile(uint32_t n, uint32_t r0, uint32_t oh, uint32_t t)
    {
        const uint32_t ow0 = t * owTile_;
        const uint32_t len = (w_ - ow0 < owTile_) ? (w_ - ow0) : owTile_;
        const int64_t colStart = static_cast<int64_t>(ow0) - 1;
        const int64_t span = static_cast<int64_t>(len) + 2;
        const int64_t lo = colStart > 0 ? colStart : 0;
        const int64_t hi = (colStart + span < static_cast<int64_t>(w_)) ? colStart + span : static_cast<int64_t>(w_);
        const bool needZero = (lo > colStart) || (hi < colStart + span);
        const uint32_t lead = static_cast<uint32_t>(lo - colStart);
        const uint32_t shift = (BLK - lead % BLK) % BLK;
        const uint32_t cnt = n1_ + n3_;

        LocalTensor<float> acc = accBuf_.Get<float>();
        LocalTensor<float> tap = tapBuf_.Get<float>();
        LocalTensor<float> w1 = w1Buf_.Get<float>();
        LocalTensor<float> w3 = w3Buf_.Get<float>();
        LocalTensor<float> b1 = b1Buf_.Get<float>();
        LocalTensor<float> b3 = b3Buf_.Get<float>();

        for (uint32_t o = 0; o < n1_; ++o) {
            Duplicate(acc[o * owTile_], b1.GetValue(o), len);
        }
        for (uint32_t o = 0; o < n3_; ++o) {
            Duplicate(acc[(n1_ + o) * owTile_], b3.GetValue(o), len);
        }

        for (uint32_t sc = 0; sc < s_; ++sc) {
            for (uint32_t kh = 0; kh < 3; ++kh) {
                if (n3_ == 0 && kh != 1) {
                    continue;   // 1x1-only block: just the centre row
                }
                const int64_t ih = static_cast<int64_t>(oh) - 1 + kh;
                if (ih < 0 || ih >= static_cast<int64_t>(h_)) {
                    continue;   // zero padding row
                }
                const uint32_t slot = static_cast<uint32_t>(ih + 1 - r0);
                LocalTensor<float> row = rowQue_.AllocTensor<float>();
                if (needZero) {
                    Duplicate(row, 0.0f, rowCap_);
                    Sync<HardEvent::V_MTE2>();
                }
                DataCopyExtParams cp{1, static_cast<uint32_t>(hi - lo) * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
                DataCopyPad(row[lead + shift], scratchGm_[sc * slotStride_ + slot * w_ + lo], cp, noPad);
                rowQue_.EnQue(row);
                row = rowQue_.DeQue<float>();

                for (uint32_t kw = 0; kw < 3; ++kw) {
                    const bool centre = (kh == 1 && kw == 1);
                    if (!centre && n3_ == 0) {
                        continue;
                    }
                    Gather(tap, row, offsets_, (shift + kw) * static_cast<uint32_t>(sizeof(float)), len);
                    if (centre) {
                        for (uint32_t o = 0; o < n1_; ++o) {
                            Axpy(acc[o * owTile_], tap, w1.GetValue(o * s_ + sc), len);
                        }
                    }
                    const uint32_t tapIdx = kh * 3 + kw;
                    for (uint32_t o = 0; o < n3_; ++o) {
                        Axpy(acc[(n1_ + o) * owTile_], tap, w3.GetValue((o * s_ + sc) * 9 + tapIdx), len);
                    }
                }
                rowQue_.FreeTensor(row);
            }
        }

        LocalTensor<float> out = outQue_.AllocTensor<float>();
        Relu(out, acc, cnt * owTile_);
        outQue_.EnQue(out);
        out = outQue_.DeQue<float>();
        DataCopyExtParams op{static_cast<uint16_t>(cnt), len * static_cast<uint32_t>(sizeof(float)),
                             (owTile_ - Align(len)) / BLK,
                             static_cast<uint32_t>((static_cast<uint64_t>(h_) * w_ - len) * sizeof(float)), 0};
        const uint64_t dst = ((static_cast<uint64_t>(n) * outC_ + cBase_) * h_ + oh) * w_ + ow0;
        DataCopyPad(yGm_[dst], out, op);
        outQue_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> sqWBuf_, sqBBuf_, sqAccBuf_;
    TBuf<TPosition::VECCALC> w1Buf_, w3Buf_, b1Buf_, b3Buf_, accBuf_, tapBuf_, offBuf_;
    TQue<QuePosition::VECIN, DEPTH> xQue_;
    TQue<QuePosition::VECIN, DEPTH> rowQue_;
    TQue<QuePosition::VECOUT, DEPTH> outQue_;
    LocalTensor<uint32_t> offsets_;

    GlobalTensor<float> xGm_, sqwGm_, sqbGm_, e1wGm_, e1bGm_, e3wGm_, e3bGm_, yGm_, scratchGm_;

    uint32_t n_, c_, h_, w_, s_, e1_, e3_, outC_;
    uint32_t band_, bandNum_, sqTile_, ciChunk_, ciChunkA_;
    uint32_t ocBlock_, ocBlockNum_, owTile_, owTileNum_, rowCap_, slotStride_;
    uint32_t unitBegin_ = 0, unitCount_ = 0;
    uint32_t cBase_ = 0, n1_ = 0, n3_ = 0;
    int64_t loadedBlock_ = -1;
};

extern "C" __global__ __aicore__ void squeeze_expand_relu2d(GM_ADDR x, GM_ADDR squeeze_weight, GM_ADDR squeeze_bias,
                                                            GM_ADDR expand1x1_weight, GM_ADDR expand1x1_bias,
                                                            GM_ADDR expand3x3_weight, GM_ADDR expand3x3_bias,
                                                            GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    SqueezeExpandRelu2dKernel op;
    op.Init(x, squeeze_weight, squeeze_bias, expand1x1_weight, expand1x1_bias, expand3x3_weight, expand3x3_bias, y,
            workspace, tilingData);
    op.Process();
}
