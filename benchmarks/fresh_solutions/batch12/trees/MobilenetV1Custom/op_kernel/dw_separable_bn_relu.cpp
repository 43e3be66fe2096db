/**
 * DwSeparableBnRelu kernel (MobileNet-style depthwise-separable block, inference form).
 *
 *   d[c]  = relu(dwScale[c] * dwconv_KxK(x[c]) + dwShift[c])        stage 1, per channel
 *   y[o]  = relu(pwScale[o] * sum_c pw[o, c] * d[c] + pwShift[o])   stage 2, 1x1 conv
 *
 * One work unit = one output line (n, oh) restricted to a chunk of owTile columns. Stage 1 writes
 * the line of every input channel to UB (dwLine[C][owTileAlign], fp32) so that stage 2 never goes
 * back to global memory for the intermediate activation.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
template <HardEvent EV>
__aicore__ inline void Fence()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
    SetFlag<EV>(id);
    WaitFlag<EV>(id);
}
__aicore__ inline uint32_t UMin(uint32_t a, uint32_t b) { return a < b ? a : b; }
}  // namespace

template <typename T>
class DwSeparableBnReluKernel {
public:
    __aicore__ inline DwSeparableBnReluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR dwW, GM_ADDR dwScale, GM_ADDR dwShift, GM_ADDR pwW,
                                GM_ADDR pwScale, GM_ADDR pwShift, GM_ADDR y, const DwSeparableBnReluTilingData& tiling)
    {
        tl = tiling;
        const uint32_t core = GetBlockIdx();
        unitBegin = core * tl.unitsPerCore + UMin(core, tl.unitsRem);
        unitEnd = unitBegin + tl.unitsPerCore + (core < tl.unitsRem ? 1 : 0);
        kk = tl.ksize * tl.ksize;
        kkAlign = (kk + 15) / 16 * 16;   // 32B aligned rows for both dtypes
        cAlign = (tl.inC + 15) / 16 * 16;
        zeroCell = tl.ksize * tl.inW;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        dwWGm.SetGlobalBuffer((__gm__ T*)dwW);
        dwScaleGm.SetGlobalBuffer((__gm__ T*)dwScale);
        dwShiftGm.SetGlobalBuffer((__gm__ T*)dwShift);
        pwWGm.SetGlobalBuffer((__gm__ T*)pwW);
        pwScaleGm.SetGlobalBuffer((__gm__ T*)pwScale);
        pwShiftGm.SetGlobalBuffer((__gm__ T*)pwShift);
        yGm.SetGlobalBuffer((__gm__ T*)y);

        const uint32_t ta = tl.owTileAlign;
        pipe.InitBuffer(dwLineBuf, tl.inC * ta * sizeof(float));
        pipe.InitBuffer(offBuf, kk * ta * sizeof(uint32_t));
        pipe.InitBuffer(tapF32Buf, ta * sizeof(float));
        pipe.InitBuffer(tapRawBuf, ta * sizeof(T));
        pipe.InitBuffer(slabBuf, tl.cBlock * tl.slabStride * sizeof(T));
        pipe.InitBuffer(dwParamBuf, tl.cBlock * kkAlign * sizeof(float));
        pipe.InitBuffer(dwParamRawBuf, tl.cBlock * kkAlign * sizeof(T));
        pipe.InitBuffer(accBuf, tl.oBlock * ta * sizeof(float));
        pipe.InitBuffer(pwBuf, tl.oBlock * cAlign * sizeof(float));
        pipe.InitBuffer(pwRawBuf, tl.oBlock * cAlign * sizeof(T));
        pipe.InitBuffer(outQue, 2, tl.oBlock * ta * sizeof(T));

        // zero cell of every slab (never overwritten by data, see StageChannels)
        Duplicate(slabBuf.Get<T>(), static_cast<T>(0), tl.cBlock * tl.slabStride);
        Fence<HardEvent::V_MTE2>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            const uint32_t chunk = u % tl.owChunks;
            const uint32_t line = u / tl.owChunks;
            const uint32_t oh = line % tl.outH;
            const uint32_t n = line / tl.outH;
            const uint32_t ow0 = chunk * tl.owTile;
            const uint32_t cnt = UMin(tl.owTile, tl.outW - ow0);
            DepthwiseStage(n, oh, ow0, cnt);
            PointwiseStage(n, oh, ow0, cnt);
        }
    }

private:
    // ---------------- stage 1 ----------------
    __aicore__ inline void DepthwiseStage(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t cnt)
    {
        const int32_t ihBase = static_cast<int32_t>(oh * tl.stride) - static_cast<int32_t>(tl.pad);
        uint32_t khLo = 0;
        while (ihBase + static_cast<int32_t>(khLo) < 0) {
            ++khLo;
        }
        uint32_t khHi = tl.ksize;   // exclusive
        while (khHi > khLo && ihBase + static_cast<int32_t>(khHi) - 1 >= static_cast<int32_t>(tl.inH)) {
            --khHi;
        }
        BuildOffsets(khLo, khHi, ow0, cnt);

        LocalTensor<float> dwLine = dwLineBuf.Get<float>();
        LocalTensor<float> tapF = tapF32Buf.Get<float>();
        LocalTensor<T> slab = slabBuf.Get<T>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        const uint32_t ta = tl.owTileAlign;

        for (uint32_t c0 = 0; c0 < tl.inC; c0 += tl.cBlock) {
            const uint32_t cCnt = UMin(tl.cBlock, tl.inC - c0);
            LocalTensor<float> prm = LoadDwParams(c0, cCnt);   // [w(kk) .. | scale | shift] per channel
            StageChannels(n, c0, cCnt, ihBase + static_cast<int32_t>(khLo), khHi - khLo);
            for (uint32_t j = 0; j < cCnt; ++j) {
                LocalTensor<float> dst = dwLine[(c0 + j) * ta];
                Duplicate(dst, 0.0f, ta);
                const uint32_t slabByte = j * tl.slabStride * sizeof(T);
                for (uint32_t kh = khLo; kh < khHi; ++kh) {
                    for (uint32_t kw = 0; kw < tl.ksize; ++kw) {
                        const uint32_t tapIdx = kh * tl.ksize + kw;
                        if constexpr (sizeof(T) == sizeof(float)) {
                            Gather(tapF, slab, off[tapIdx * ta], slabByte, ta);
                        } else {
                            LocalTensor<T> tapRaw = tapRawBuf.Get<T>();
                            Gather(tapRaw, slab, off[tapIdx * ta], slabByte, ta);
                            Cast(tapF, tapRaw, RoundMode::CAST_NONE, ta);
                        }
                        Axpy(dst, tapF, prm.GetValue(j * kkAlign + tapIdx), ta);
                    }
                }
                // folded batch-norm + ReLU
                Muls(dst, dst, dwScaleCache[j], ta);
                Adds(dst, dst, dwShiftCache[j], ta);
                Relu(dst, dst, ta);
            }
        }
    }

    // Byte offsets of tap (kh, kw) for every output column of the chunk, relative to a channel
    // slab holding input rows [khLo, khHi). Out-of-image columns point at the zero cell.
    __aicore__ inline void BuildOffsets(uint32_t khLo, uint32_t khHi, uint32_t ow0, uint32_t cnt)
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        const uint32_t ta = tl.owTileAlign;
        Fence<HardEvent::V_S>();   // previous unit's gathers are done with the table
        for (uint32_t kh = khLo; kh < khHi; ++kh) {
            for (uint32_t kw = 0; kw < tl.ksize; ++kw) {
                const uint32_t base = (kh * tl.ksize + kw) * ta;
                for (uint32_t i = 0; i < ta; ++i) {
                    const int32_t iw = static_cast<int32_t>((ow0 + i) * tl.stride + kw) - static_cast<int32_t>(tl.pad);
                    uint32_t elem = zeroCell;
                    if (i < cnt && iw >= 0 && iw < static_cast<int32_t>(tl.inW)) {
                        elem = (kh - khLo) * tl.inW + static_cast<uint32_t>(iw);
                    }
                    off.SetValue(base + i, elem * static_cast<uint32_t>(sizeof(T)));
                }
            }
        }
        Fence<HardEvent::S_V>();
    }

    __aicore__ inline LocalTensor<float> LoadDwParams(uint32_t c0, uint32_t cCnt)
    {
        LocalTensor<float> prm = dwParamBuf.Get<float>();
        constexpr uint32_t perBlk = 32 / sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(cCnt), static_cast<uint32_t>(kk * sizeof(T)), 0,
                             static_cast<uint32_t>(kkAlign / perBlk - (kk + perBlk - 1) / perBlk), 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        Fence<HardEvent::V_MTE2>();
        if constexpr (sizeof(T) == sizeof(float)) {
            // each channel's kk weights land on a 32B boundary (stride kkAlign)
            DataCopyPad(prm, dwWGm[c0 * kk], cp, pad);
            Fence<HardEvent::MTE2_S>();
        } else {
            LocalTensor<T> raw = dwParamRawBuf.Get<T>();
            DataCopyPad(raw, dwWGm[c0 * kk], cp, pad);
            Fence<HardEvent::MTE2_V>();
            Cast(prm, raw, RoundMode::CAST_NONE, cCnt * kkAlign);
            Fence<HardEvent::V_S>();
        }
        for (uint32_t j = 0; j < cCnt; ++j) {   // cBlock <= MAX_CACHE (host side)
            dwScaleCache[j] = static_cast<float>(dwScaleGm.GetValue(c0 + j));
            dwShiftCache[j] = static_cast<float>(dwShiftGm.GetValue(c0 + j));
        }
        return prm;
    }

    // Brings rows [ih0, ih0 + rows) of channels [c0, c0 + cCnt) into the slab buffer.
    // Rows of one channel are contiguous in GM, so one strided DMA covers the whole block.
    __aicore__ inline void StageChannels(uint32_t n, uint32_t c0, uint32_t cCnt, int32_t ih0, uint32_t rows)
    {
        if (rows == 0) {
            return;
        }
        constexpr uint32_t perBlk = 32 / sizeof(T);
        const uint32_t elems = rows * tl.inW;
        const uint32_t usedBlk = (elems + perBlk - 1) / perBlk;
        const uint64_t plane = static_cast<uint64_t>(tl.inH) * tl.inW;
        const uint64_t src = (static_cast<uint64_t>(n) * tl.inC + c0) * plane + static_cast<uint64_t>(ih0) * tl.inW;
        DataCopyExtParams cp{static_cast<uint16_t>(cCnt), static_cast<uint32_t>(elems * sizeof(T)),
                             static_cast<uint32_t>((plane - elems) * sizeof(T)),
                             static_cast<uint32_t>(tl.slabStride / perBlk - usedBlk), 0};
        DataCopyPadExtParams<T> zpad{true, 0, static_cast<uint8_t>(usedBlk * perBlk - elems), static_cast<T>(0)};
        Fence<HardEvent::V_MTE2>();
        DataCopyPad(slabBuf.Get<T>(), xGm[src], cp, zpad);
        Fence<HardEvent::MTE2_V>();
    }

    // ---------------- stage 2 ----------------
    __aicore__ inline void PointwiseStage(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t cnt)
    {
        LocalTensor<float> dwLine = dwLineBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> pw = pwBuf.Get<float>();
        const uint32_t ta = tl.owTileAlign;
        constexpr uint32_t perBlk = 32 / sizeof(T);

        for (uint32_t o0 = 0; o0 < tl.outC; o0 += tl.oBlock) {
            const uint32_t oCnt = UMin(tl.oBlock, tl.outC - o0);
            LoadPwWeights(o0, oCnt);
            Duplicate(acc, 0.0f, oCnt * ta);
            for (uint32_t c = 0; c < tl.inC; ++c) {
                LocalTensor<float> src = dwLine[c * ta];
                for (uint32_t j = 0; j < oCnt; ++j) {
                    Axpy(acc[j * ta], src, pw.GetValue(j * cAlign + c), ta);
                }
            }
            LocalTensor<T> out = outQue.AllocTensor<T>();
            for (uint32_t j = 0; j < oCnt; ++j) {
                const float sc = static_cast<float>(pwScaleGm.GetValue(o0 + j));
                const float sh = static_cast<float>(pwShiftGm.GetValue(o0 + j));
                Muls(acc[j * ta], acc[j * ta], sc, ta);
                Adds(acc[j * ta], acc[j * ta], sh, ta);
            }
            if constexpr (sizeof(T) == sizeof(float)) {
                Relu(out, acc, oCnt * ta);
            } else {
                Relu(acc, acc, oCnt * ta);
                Cast(out, acc, RoundMode::CAST_ROUND, oCnt * ta);
            }
            outQue.EnQue(out);
            out = outQue.DeQue<T>();
            const uint64_t dst = ((static_cast<uint64_t>(n) * tl.outC + o0) * tl.outH + oh) * tl.outW + ow0;
            DataCopyExtParams st{static_cast<uint16_t>(oCnt), static_cast<uint32_t>(cnt * sizeof(T)),
                                 ta / perBlk - (cnt + perBlk - 1) / perBlk,
                                 static_cast<uint32_t>((tl.outH * tl.outW - cnt) * sizeof(T)), 0};
            DataCopyPad(yGm[dst], out, st);
            outQue.FreeTensor(out);
        }
    }

    __aicore__ inline void LoadPwWeights(uint32_t o0, uint32_t oCnt)
    {
        LocalTensor<float> pw = pwBuf.Get<float>();
        constexpr uint32_t perBlk = 32 / sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(oCnt), static_cast<uint32_t>(tl.inC * sizeof(T)), 0,
                             static_cast<uint32_t>(cAlign / perBlk - (tl.inC + perBlk - 1) / perBlk), 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        Fence<HardEvent::V_MTE2>();   // Axpys of the previous block no longer read the weights
        if constexpr (sizeof(T) == sizeof(float)) {
            DataCopyPad(pw, pwWGm[static_cast<uint64_t>(o0) * tl.inC], cp, pad);
            Fence<HardEvent::MTE2_S>();
        } else {
            LocalTensor<T> raw = pwRawBuf.Get<T>();
            DataCopyPad(raw, pwWGm[static_cast<uint64_t>(o0) * tl.inC], cp, pad);
            Fence<HardEvent::MTE2_V>();
            Cast(pw, raw, RoundMode::CAST_NONE, oCnt * cAlign);
            Fence<HardEvent::V_S>();
        }
    }

    static constexpr uint32_t MAX_CACHE = 1024;

    TPipe pipe;
    TBuf<TPosition::VECCALC> dwLineBuf, offBuf, tapF32Buf, tapRawBuf, slabBuf, dwParamBuf, dwParamRawBuf;
    TBuf<TPosition::VECCALC> accBuf, pwBuf, pwRawBuf;
    TQue<QuePosition::VECOUT, 2> outQue;
    GlobalTensor<T> xGm, dwWGm, dwScaleGm, dwShiftGm, pwWGm, pwScaleGm, pwShiftGm, yGm;
    DwSeparableBnReluTilingData tl;
    float dwScaleCache[MAX_CACHE];
    float dwShiftCache[MAX_CACHE];
    uint32_t unitBegin = 0, unitEnd = 0, kk = 9, kkAlign = 16, cAlign = 16, zeroCell = 0;
};

extern "C" __global__ __aicore__ void dw_separable_bn_relu(GM_ADDR x, GM_ADDR dw_weight, GM_ADDR dw_scale,
                                                           GM_ADDR dw_shift, GM_ADDR pw_weight, GM_ADDR pw_scale,
                                                           GM_ADDR pw_shift, GM_ADDR y, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        DwSeparableBnReluKernel<float> op;
        op.Init(x, dw_weight, dw_scale, dw_shift, pw_weight, pw_scale, pw_shift, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        DwSeparableBnReluKernel<half> op;
        op.Init(x, dw_weight, dw_scale, dw_shift, pw_weight, pw_scale, pw_shift, y, td);
        op.Process();
    }
}
