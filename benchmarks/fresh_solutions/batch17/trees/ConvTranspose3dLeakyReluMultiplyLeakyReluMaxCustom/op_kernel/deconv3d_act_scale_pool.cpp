/*
 * Deconv3dActScalePool
 *
 *   c = conv_transpose3d(x, weight, bias, stride, pad, output_padding)
 *   a = leaky(leaky(c) * scale[co])          (leaky = LeakyReLU with `slope`)
 *   y = max_pool3d(a, kernel = stride = P)   (floor mode)
 *
 * The pre-pool tensor never reaches global memory. A work unit is one pooled row
 * (n, pd, ph, :) for a block of output channels: the kernel builds the P*P conv rows
 * (od, oh) = (pd*P + i, ph*P + j) one after another, activates each row and folds it into a
 * running element-wise max; the remaining width pooling is done with P gathers
 * (columns pw*P + t) and a Max.
 *
 * Conv rows are produced in gather form: for each contributing (ci, kd, kh) the input
 * row is staged in fp32, re-indexed into output-column order per kw tap through a
 * precomputed offset table (missing taps read a zero element), and then Axpy'd into
 * every channel of the block.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr float LOWEST = -3.402823466e+38f;
}

template <typename T>
class Deconv3dActScalePoolKernel {
public:
    __aicore__ inline Deconv3dActScalePoolKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR scale, GM_ADDR y,
                                const Deconv3dActScalePoolTiling &td)
    {
        p_ = td;
        k3_ = p_.kd * p_.kh * p_.kw;
        xGm_.SetGlobalBuffer((__gm__ T *)x);
        wGm_.SetGlobalBuffer((__gm__ T *)w);
        if (p_.hasBias) {
            bGm_.SetGlobalBuffer((__gm__ T *)bias, p_.cout);
        }
        sGm_.SetGlobalBuffer((__gm__ T *)scale, p_.cout);
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        uint32_t wCnt = (p_.coTile * k3_ + 15) / 16 * 16;
        pipe_.InitBuffer(inQ_, 2, p_.inPitch * sizeof(T));
        pipe_.InitBuffer(stageBuf_, p_.inPitch * sizeof(float));
        pipe_.InitBuffer(gatherBuf_, p_.rowPitch * sizeof(float));
        pipe_.InitBuffer(tapTblBuf_, p_.kw * p_.rowPitch * sizeof(uint32_t));
        pipe_.InitBuffer(poolTblBuf_, p_.pool * p_.poolPitch * sizeof(uint32_t));
        pipe_.InitBuffer(wRaw_, wCnt * sizeof(T));
        pipe_.InitBuffer(wF_, wCnt * sizeof(float));
        pipe_.InitBuffer(convBuf_, p_.coTile * p_.rowPitch * sizeof(float));
        pipe_.InitBuffer(maxBuf_, p_.coTile * p_.rowPitch * sizeof(float));
        pipe_.InitBuffer(pooledBuf_, p_.coTile * p_.poolPitch * sizeof(float));
        pipe_.InitBuffer(pickBuf_, p_.poolPitch * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, p_.coTile * p_.poolPitch * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        BuildTables();
        uint32_t begin = GetBlockIdx() * p_.unitsPerCore;
        uint32_t end = begin + p_.unitsPerCore;
        end = end > p_.totalUnits ? p_.totalUnits : end;
        for (uint32_t u = begin; u < end; ++u) {
            uint32_t r = u;
            uint32_t cb = r % p_.coBlocks;
            r /= p_.coBlocks;
            uint32_t ph = r % p_.poolH;
            r /= p_.poolH;
            uint32_t pd = r % p_.poolD;
            uint32_t n = r / p_.poolD;
            PooledRow(n, pd, ph, cb);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Fence()
    {
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> tap = tapTblBuf_.Get<uint32_t>();
        uint32_t zero = p_.inPitch - 1;
        for (uint32_t k = 0; k < p_.kw; ++k) {
            for (uint32_t ow = 0; ow < p_.rowPitch; ++ow) {
                int32_t pos = static_cast<int32_t>(ow + p_.pw) - static_cast<int32_t>(k);
                uint32_t src = zero;
                if (ow < p_.convW && pos >= 0 && pos % static_cast<int32_t>(p_.sw) == 0 &&
                    static_cast<uint32_t>(pos) / p_.sw < p_.win) {
                    src = static_cast<uint32_t>(pos) / p_.sw;
                }
                tap.SetValue(k * p_.rowPitch + ow, src * 4);
            }
        }
        // column t of every width window: pw * P + t
        LocalTensor<uint32_t> pick = poolTblBuf_.Get<uint32_t>();
        for (uint32_t t = 0; t < p_.pool; ++t) {
            for (uint32_t q = 0; q < p_.poolPitch; ++q) {
                uint32_t col = q < p_.poolW ? q * p_.pool + t : 0;
                pick.SetValue(t * p_.poolPitch + q, col * 4);
            }
        }
        LocalTensor<float> stage = stageBuf_.Get<float>();
        Duplicate(stage, 0.0f, p_.inPitch);
        Fence<HardEvent::S_V>();
    }

    __aicore__ inline int32_t Src(uint32_t o, uint32_t k, uint32_t pad, uint32_t stride, uint32_t len)
    {
        int32_t pos = static_cast<int32_t>(o + pad) - static_cast<int32_t>(k);
        if (pos < 0 || pos % static_cast<int32_t>(stride) != 0) {
            return -1;
        }
        pos /= static_cast<int32_t>(stride);
        return pos < static_cast<int32_t>(len) ? pos : -1;
    }

    __aicore__ inline void FetchWeights(uint32_t ci, uint32_t co0)
    {
        uint32_t cnt = p_.coTile * k3_;
        LocalTensor<T> raw = wRaw_.Get<T>();
        LocalTensor<float> wf = wF_.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(raw, wGm_[(static_cast<uint64_t>(ci) * p_.cout + co0) * k3_], cp,
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        Fence<HardEvent::MTE2_V>();
        if constexpr (std::is_same<T, float>::value) {
            Adds(wf, raw, 0.0f, cnt);
        } else {
            Cast(wf, raw, RoundMode::CAST_NONE, cnt);
        }
        Fence<HardEvent::V_S>();
    }

    __aicore__ inline void Stage(uint64_t off)
    {
        LocalTensor<T> raw = inQ_.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(p_.win * sizeof(T)), 0, 0, 0};
        DataCopyPad(raw, xGm_[off], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ_.EnQue(raw);
        raw = inQ_.DeQue<T>();
        LocalTensor<float> stage = stageBuf_.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            Adds(stage, raw, 0.0f, p_.win);
        } else {
            Cast(stage, raw, RoundMode::CAST_NONE, p_.win);
        }
        inQ_.FreeTensor(raw);
    }

    // conv rows (od, oh) for channels co0 .. co0+coTile into convBuf_, bias included
    __aicore__ inline void ConvRow(uint32_t n, uint32_t od, uint32_t oh, uint32_t co0)
    {
        LocalTensor<float> conv = convBuf_.Get<float>();
        LocalTensor<float> g = gatherBuf_.Get<float>();
        LocalTensor<float> stage = stageBuf_.Get<float>();
        LocalTensor<uint32_t> tap = tapTblBuf_.Get<uint32_t>();
        LocalTensor<float> wf = wF_.Get<float>();
        const uint32_t pitch = p_.rowPitch;

        Duplicate(conv, 0.0f, p_.coTile * pitch);
        for (uint32_t ci = 0; ci < p_.cin; ++ci) {
            bool haveW = false;
            for (uint32_t kd = 0; kd < p_.kd; ++kd) {
                int32_t id = Src(od, kd, p_.pd, p_.sd, p_.din);
                if (id < 0) {
                    continue;
                }
                for (uint32_t kh = 0; kh < p_.kh; ++kh) {
                    int32_t ih = Src(oh, kh, p_.ph, p_.sh, p_.hin);
                    if (ih < 0) {
                        continue;
                    }
                    if (!haveW) {
                        PipeBarrier<PIPE_V>();
                        FetchWeights(ci, co0);
                        haveW = true;
                    }
                    Stage((((static_cast<uint64_t>(n) * p_.cin + ci) * p_.din + id) * p_.hin + ih) * p_.win);
                    for (uint32_t kw = 0; kw < p_.kw; ++kw) {
                        Gather(g, stage, tap[kw * pitch], 0, p_.convW);
                        PipeBarrier<PIPE_V>();
                        uint32_t widx = (kd * p_.kh + kh) * p_.kw + kw;
                        for (uint32_t c = 0; c < p_.coTile; ++c) {
                            Axpy(conv[c * pitch], g, wf.GetValue(c * k3_ + widx), p_.convW);
                        }
                        PipeBarrier<PIPE_V>();
                    }
                }
            }
        }
        if (p_.hasBias) {
            for (uint32_t c = 0; c < p_.coTile; ++c) {
                Adds(conv[c * pitch], conv[c * pitch], static_cast<float>(bGm_.GetValue(co0 + c)), p_.convW);
            }
        }
    }

    __aicore__ inline void PooledRow(uint32_t n, uint32_t pd, uint32_t ph, uint32_t cb)
    {
        uint32_t co0 = cb * p_.coTile;
        const uint32_t pitch = p_.rowPitch;
        LocalTensor<float> conv = convBuf_.Get<float>();
        LocalTensor<float> run = maxBuf_.Get<float>();
        Duplicate(run, LOWEST, p_.coTile * pitch);

        for (uint32_t i = 0; i < p_.pool; ++i) {
            for (uint32_t j = 0; j < p_.pool; ++j) {
                ConvRow(n, pd * p_.pool + i, ph * p_.pool + j, co0);
                PipeBarrier<PIPE_V>();
                for (uint32_t c = 0; c < p_.coTile; ++c) {
                    LocalTensor<float> row = conv[c * pitch];
                    float s = static_cast<float>(sGm_.GetValue(co0 + c));
                    LeakyRelu(row, row, p_.slope, p_.convW);
                    Muls(row, row, s, p_.convW);
                    LeakyRelu(row, row, p_.slope, p_.convW);
                }
                PipeBarrier<PIPE_V>();
                Max(run, run, conv, p_.coTile * pitch);
                PipeBarrier<PIPE_V>();
            }
        }

        // width pooling: max over the P interleaved column sets
        LocalTensor<float> pooled = pooledBuf_.Get<float>();
        LocalTensor<float> pick = pickBuf_.Get<float>();
        LocalTensor<uint32_t> tbl = poolTblBuf_.Get<uint32_t>();
        const uint32_t pp = p_.poolPitch;
        for (uint32_t c = 0; c < p_.coTile; ++c) {
            LocalTensor<float> dst = pooled[c * pp];
            Gather(dst, run[c * pitch], tbl, 0, p_.poolW);
            for (uint32_t t = 1; t < p_.pool; ++t) {
                Gather(pick, run[c * pitch], tbl[t * pp], 0, p_.poolW);
                PipeBarrier<PIPE_V>();
                Max(dst, dst, pick, p_.poolW);
                PipeBarrier<PIPE_V>();
            }
        }

        LocalTensor<T> out = outQ_.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(out, pooled, p_.coTile * pp);
        } else {
            Cast(out, pooled, RoundMode::CAST_ROUND, p_.coTile * pp);
        }
        outQ_.EnQue(out);
        out = outQ_.DeQue<T>();
        uint64_t plane = static_cast<uint64_t>(p_.poolD) * p_.poolH * p_.poolW;
        uint64_t dst = ((static_cast<uint64_t>(n) * p_.cout + co0) * p_.poolD + pd) * p_.poolH * p_.poolW +
                       static_cast<uint64_t>(ph) * p_.poolW;
        uint32_t bytes = p_.poolW * sizeof(T);
        uint32_t bytesAl = (bytes + 31) / 32 * 32;
        DataCopyExtParams st{static_cast<uint16_t>(p_.coTile), bytes,
                             static_cast<uint32_t>((pp * sizeof(T) - bytesAl) / 32),
                             static_cast<uint32_t>((plane - p_.poolW) * sizeof(T)), 0};
        DataCopyPad(yGm_[dst], out, st);
        outQ_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> stageBuf_, gatherBuf_, tapTblBuf_, poolTblBuf_, wRaw_, wF_;
    TBuf<TPosition::VECCALC> convBuf_, maxBuf_, pooledBuf_, pickBuf_;
    GlobalTensor<T> xGm_, wGm_, bGm_, sGm_, yGm_;
    Deconv3dActScalePoolTiling p_;
    uint32_t k3_ = 0;
};

extern "C" __global__ __aicore__ void deconv3d_act_scale_pool(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR scale,
                                                              GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(td, tiling);
    Deconv3dActScalePoolKernel<DTYPE_X> op;
    op.Init(x, weight, bias, scale, y, td);
    op.Process();
}
