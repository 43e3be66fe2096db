#include "kernel_operator.h"

// ValidConv2d: y[n,co,oh,ow] = b[co] + sum_{ci,i,j} x[n,ci,oh*sH+i,ow+j] * w[co,ci,i,j]
//
// job = (n, channel tile, oh). For each (ci, i) the input row x[n,ci,oh*sH+i,:] is staged in UB
// once; the kW shifted windows are re-read from GM at their (unaligned) offsets so that each
// window starts 32B-aligned in UB, then Axpy'd into all channels of the tile.

template <typename T>
class ValidConv2dOp {
public:
    __aicore__ inline ValidConv2dOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const ValidConv2dTilingData &td)
    {
        cfg_ = td;
        kk_ = cfg_.kH * cfg_.kW;
        kkPad_ = (kk_ + 15) / 16 * 16;   // 32B aligned for both fp16 and fp32 rows
        first_ = AscendC::GetBlockIdx() * cfg_.jobsPerCore;
        last_ = first_ + cfg_.jobsPerCore < cfg_.jobs ? first_ + cfg_.jobsPerCore : cfg_.jobs;

        x_.SetGlobalBuffer((__gm__ T *)x);
        w_.SetGlobalBuffer((__gm__ T *)w);
        b_.SetGlobalBuffer((__gm__ T *)b);
        y_.SetGlobalBuffer((__gm__ T *)y);

        pipe_.InitBuffer(winQ_, 2, cfg_.rowCap * sizeof(T));
        pipe_.InitBuffer(wgtQ_, 1, cfg_.chanTile * kkPad_ * sizeof(T));
        pipe_.InitBuffer(resQ_, 1, cfg_.chanTile * cfg_.rowCap * sizeof(T));
        pipe_.InitBuffer(acc_, cfg_.chanTile * cfg_.rowCap * sizeof(float));
        pipe_.InitBuffer(wgt32_, cfg_.chanTile * kkPad_ * sizeof(float));
        pipe_.InitBuffer(win32_, cfg_.rowCap * sizeof(float));
    }

    __aicore__ inline void Run()
    {
        for (uint32_t job = first_; job < last_; ++job) {
            uint32_t oh = job % cfg_.outH;
            uint32_t rest = job / cfg_.outH;
            uint32_t ct = rest % cfg_.chanTiles;
            uint32_t n = rest / cfg_.chanTiles;
            uint32_t c0 = ct * cfg_.chanTile;
            uint32_t nc = cfg_.outC - c0 < cfg_.chanTile ? cfg_.outC - c0 : cfg_.chanTile;
            OneJob(n, c0, nc, oh);
        }
    }

private:
    __aicore__ inline void OneJob(uint32_t n, uint32_t c0, uint32_t nc, uint32_t oh)
    {
        AscendC::LocalTensor<float> acc = acc_.Get<float>();
        AscendC::Duplicate(acc, 0.0f, nc * cfg_.rowCap);
        const uint32_t cols = cfg_.outW;

        for (uint32_t ci = 0; ci < cfg_.inC; ++ci) {
            StageWeights(c0, nc, ci);
            AscendC::LocalTensor<float> wf = wgt32_.Get<float>();
            for (uint32_t i = 0; i < cfg_.kH; ++i) {
                uint64_t rowBase = ((static_cast<uint64_t>(n) * cfg_.inC + ci) * cfg_.inH + oh * cfg_.strideH + i) * cfg_.inW;
                for (uint32_t j = 0; j < cfg_.kW; ++j) {
                    AscendC::LocalTensor<T> win = winQ_.AllocTensor<T>();
                    AscendC::DataCopyExtParams dc{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
                    AscendC::DataCopyPad(win, x_[rowBase + j], dc, AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
                    winQ_.EnQue(win);
                    win = winQ_.DeQue<T>();
                    AscendC::LocalTensor<float> src = win32_.Get<float>();
                    if constexpr (std::is_same<T, float>::value) {
                        AscendC::DataCopy(src, win, cfg_.rowCap);
                    } else {
                        AscendC::Cast(src, win, AscendC::RoundMode::CAST_NONE, cols);
                    }
                    AscendC::PipeBarrier<PIPE_V>();
                    const uint32_t tap = i * cfg_.kW + j;
                    for (uint32_t c = 0; c < nc; ++c) {
                        AscendC::Axpy(acc[c * cfg_.rowCap], src, wf.GetValue(c * kkPad_ + tap), cols);
                    }
                    AscendC::PipeBarrier<PIPE_V>();
                    winQ_.FreeTensor(win);
                }
            }
        }
        Flush(n, c0, nc, oh);
    }

    __aicore__ inline void StageWeights(uint32_t c0, uint32_t nc, uint32_t ci)
    {
        AscendC::LocalTensor<T> wl = wgtQ_.AllocTensor<T>();
        AscendC::DataCopyExtParams dc{static_cast<uint16_t>(nc), static_cast<uint32_t>(kk_ * sizeof(T)),
                                      static_cast<uint32_t>((cfg_.inC - 1) * kk_ * sizeof(T)),
                                      static_cast<uint32_t>((kkPad_ * sizeof(T) - (kk_ * sizeof(T) + 31) / 32 * 32) / 32), 0};
        AscendC::DataCopyPad(wl, w_[(static_cast<uint64_t>(c0) * cfg_.inC + ci) * kk_], dc,
                             AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
        wgtQ_.EnQue(wl);
        wl = wgtQ_.DeQue<T>();
        AscendC::LocalTensor<float> wf = wgt32_.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(wf, wl, nc * kkPad_);
        } else {
            AscendC::Cast(wf, wl, AscendC::RoundMode::CAST_NONE, nc * kkPad_);
        }
        wgtQ_.FreeTensor(wl);
        AscendC::PipeBarrier<PIPE_ALL>();   // scalar reads of the taps follow
    }

    __aicore__ inline void Flush(uint32_t n, uint32_t c0, uint32_t nc, uint32_t oh)
    {
        AscendC::LocalTensor<float> acc = acc_.Get<float>();
        if (cfg_.withBias) {
            AscendC::PipeBarrier<PIPE_ALL>();
            for (uint32_t c = 0; c < nc; ++c) {
                AscendC::Adds(acc[c * cfg_.rowCap], acc[c * cfg_.rowCap], static_cast<float>(b_.GetValue(c0 + c)),
                              cfg_.outW);
            }
            AscendC::PipeBarrier<PIPE_V>();
        }
        AscendC::LocalTensor<T> r = resQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(r, acc, nc * cfg_.rowCap);
        } else {
            AscendC::Cast(r, acc, AscendC::RoundMode::CAST_ROUND, nc * cfg_.rowCap);
        }
        resQ_.EnQue(r);
        r = resQ_.DeQue<T>();
        uint32_t bytes = cfg_.outW * sizeof(T);
        AscendC::DataCopyExtParams dc{static_cast<uint16_t>(nc), bytes,
                                      static_cast<uint32_t>((cfg_.rowCap * sizeof(T) - (bytes + 31) / 32 * 32) / 32),
                                      static_cast<uint32_t>((cfg_.outH - 1) * cfg_.outW * sizeof(T)), 0};
        uint64_t dst = ((static_cast<uint64_t>(n) * cfg_.outC + c0) * cfg_.outH + oh) * cfg_.outW;
        AscendC::DataCopyPad(y_[dst], r, dc);
        resQ_.FreeTensor(r);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> winQ_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> wgtQ_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> resQ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> acc_, wgt32_, win32_;
    AscendC::GlobalTensor<T> x_, w_, b_, y_;
    ValidConv2dTilingData cfg_;
    uint32_t kk_ = 0, kkPad_ = 0, first_ = 0, last_ = 0;
};

extern "C" __global__ __aicore__ void valid_conv2d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ValidConv2dOp<DTYPE_X> op;
    op.Init(x, weight, bias, y, td);
    op.Run();
}
