// residual_pair_conv.cpp
//
// Two-conv residual unit with a projected shortcut, inference form (each
// BatchNorm folded into a per-channel scale/shift on the host):
//
//   stage 0:  mid = relu(s1 * conv3x3(x)   + t1)
//   stage 1:  y   = relu(s2 * conv3x3(mid) + t2 + s3 * conv1x1(x) + t3)
//
// The same kernel is launched twice; tiling.stage selects the variant.
// Work unit: one output row (n, oh) for all output channels. 3x3 filters use
// padding 1 / stride 1; the horizontal tap shift is done with Gather over a
// staged row [8 zeros | W values | 8 zeros] so out-of-range columns read 0.
#include "kernel_operator.h"

constexpr uint32_t GUARD = 8;

struct ResidualPairConvTiling {
    uint32_t stage;      // 0: first conv, 1: second conv + shortcut
    uint32_t batch;
    uint32_t inCh;       // channels of the 3x3 conv input (x for stage 0, mid for stage 1)
    uint32_t skipCh;     // channels of x used by the 1x1 shortcut (stage 1)
    uint32_t outCh;
    uint32_t height;
    uint32_t width;
};

class ResidualPairConv {
public:
    __aicore__ inline ResidualPairConv() {}

    __aicore__ inline void Init(GM_ADDR src, GM_ADDR w3, GM_ADDR affine, GM_ADDR skipSrc, GM_ADDR w1,
                                GM_ADDR dst, const ResidualPairConvTiling &tiling)
    {
        tl = tiling;
        hw = tl.height * tl.width;
        srcGm.SetGlobalBuffer((__gm__ float *)src);
        w3Gm.SetGlobalBuffer((__gm__ float *)w3);
        affGm.SetGlobalBuffer((__gm__ float *)affine);   // [4][outCh]: s_main, t_main, s_skip, t_skip
        skipGm.SetGlobalBuffer((__gm__ float *)skipSrc);
        w1Gm.SetGlobalBuffer((__gm__ float *)w1);        // [skipCh][outCh]
        dstGm.SetGlobalBuffer((__gm__ float *)dst);

        const uint32_t staged = GUARD + tl.width + GUARD;
        pipe.InitBuffer(rowQ, 2, staged * sizeof(float));
        pipe.InitBuffer(wQ, 2, 9 * tl.outCh * sizeof(float));
        pipe.InitBuffer(accQ, 1, tl.outCh * tl.width * sizeof(float));
        pipe.InitBuffer(skipAccBuf, tl.outCh * tl.width * sizeof(float));
        pipe.InitBuffer(shiftBuf, tl.width * sizeof(float));
        pipe.InitBuffer(idxBuf, 3 * tl.width * sizeof(uint32_t));
        pipe.InitBuffer(affBuf, 4 * tl.outCh * sizeof(float));
        pipe.InitBuffer(w1Buf, ((tl.skipCh * tl.outCh + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        Prepare();
        const uint32_t rows = tl.batch * tl.height;
        for (uint32_t r = AscendC::GetBlockIdx(); r < rows; r += AscendC::GetBlockNum()) {
            RowTask(r / tl.height, r % tl.height);
        }
    }

private:
    __aicore__ inline void Prepare()
    {
        // tap kw reads column ow + kw - 1 of the staged row
        AscendC::LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < 3; ++kw) {
            for (uint32_t ow = 0; ow < tl.width; ++ow) {
                idx.SetValue(kw * tl.width + ow, (GUARD + ow + kw - 1) * sizeof(float));
            }
        }
        AscendC::LocalTensor<float> aff = affBuf.Get<float>();
        AscendC::DataCopy(aff, affGm, 4 * tl.outCh);
        if (tl.stage == 1) {
            AscendC::DataCopy(w1Buf.Get<float>(), w1Gm, (tl.skipCh * tl.outCh + 7) / 8 * 8);
        }
        event_t e0 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(e0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(e0);
        event_t e1 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(e1);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(e1);
    }

    // brings row ih of channel c of `gm` into a guarded UB row
    __aicore__ inline AscendC::LocalTensor<float> StageRow(AscendC::GlobalTensor<float> &gm, uint32_t chans,
                                                           uint32_t n, uint32_t c, uint32_t ih)
    {
        AscendC::LocalTensor<float> row = rowQ.AllocTensor<float>();
        AscendC::Duplicate(row, 0.0f, GUARD);
        AscendC::Duplicate(row[GUARD + tl.width], 0.0f, GUARD);
        AscendC::DataCopy(row[GUARD], gm[((uint64_t)n * chans + c) * hw + (uint64_t)ih * tl.width], tl.width);
        rowQ.EnQue(row);
        return rowQ.DeQue<float>();
    }

    __aicore__ inline void RowTask(uint32_t n, uint32_t oh)
    {
        AscendC::LocalTensor<float> acc = accQ.AllocTensor<float>();
        AscendC::LocalTensor<float> shifted = shiftBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> aff = affBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tl.outCh * tl.width);

        // ---- 3x3 convolution ----
        for (uint32_t ic = 0; ic < tl.inCh; ++ic) {
            AscendC::LocalTensor<float> wk = wQ.AllocTensor<float>();
            AscendC::DataCopy(wk, w3Gm[(uint64_t)ic * 9 * tl.outCh], 9 * tl.outCh);   // [kh][kw][oc]
            wQ.EnQue(wk);
            wk = wQ.DeQue<float>();
            for (uint32_t kh = 0; kh < 3; ++kh) {
                int32_t ih = (int32_t)oh + (int32_t)kh - 1;
                if (ih < 0 || ih >= (int32_t)tl.height) {
                    continue;
                }
                AscendC::LocalTensor<float> row = StageRow(srcGm, tl.inCh, n, ic, (uint32_t)ih);
                for (uint32_t kw = 0; kw < 3; ++kw) {
                    AscendC::Gather(shifted, row, idx[kw * tl.width], 0u, tl.width);
                    const uint32_t wOff = (kh * 3 + kw) * tl.outCh;
                    for (uint32_t oc = 0; oc < tl.outCh; ++oc) {
                        AscendC::Axpy(acc[oc * tl.width], shifted, wk.GetValue(wOff + oc), tl.width);
                    }
                }
                rowQ.FreeTensor(row);
            }
            wQ.FreeTensor(wk);
        }

        // folded BatchNorm of the main path
        for (uint32_t oc = 0; oc < tl.outCh; ++oc) {
            AscendC::LocalTensor<float> line = acc[oc * tl.width];
            AscendC::Muls(line, line, aff.GetValue(oc), tl.width);
            AscendC::Adds(line, line, aff.GetValue(tl.outCh + oc), tl.width);
        }

        if (tl.stage == 1) {
            // ---- 1x1 projection of x on the shortcut, then its folded BatchNorm ----
            AscendC::LocalTensor<float> sk = skipAccBuf.Get<float>();
            AscendC::LocalTensor<float> w1 = w1Buf.Get<float>();
            AscendC::Duplicate(sk, 0.0f, tl.outCh * tl.width);
            for (uint32_t c = 0; c < tl.skipCh; ++c) {
                AscendC::LocalTensor<float> row = StageRow(skipGm, tl.skipCh, n, c, oh);
                for (uint32_t oc = 0; oc < tl.outCh; ++oc) {
                    AscendC::Axpy(sk[oc * tl.width], row[GUARD], w1.GetValue(c * tl.outCh + oc), tl.width);
                }
                rowQ.FreeTensor(row);
            }
            for (uint32_t oc = 0; oc < tl.outCh; ++oc) {
                AscendC::LocalTensor<float> line = sk[oc * tl.width];
                AscendC::Muls(line, line, aff.GetValue(2 * tl.outCh + oc), tl.width);
                AscendC::Adds(line, line, aff.GetValue(3 * tl.outCh + oc), tl.width);
            }
            AscendC::Add(acc, acc, sk, tl.outCh * tl.width);
        }
        AscendC::Relu(acc, acc, tl.outCh * tl.width);

        accQ.EnQue(acc);
        acc = accQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(tl.outCh),
                                      static_cast<uint32_t>(tl.width * sizeof(float)), 0,
                                      static_cast<uint32_t>((hw - tl.width) * sizeof(float)), 0};
        AscendC::DataCopyPad(dstGm[(uint64_t)n * tl.outCh * hw + (uint64_t)oh * tl.width], acc, cp);
        accQ.FreeTensor(acc);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> rowQ, wQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> accQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> skipAccBuf, shiftBuf, idxBuf, affBuf, w1Buf;
    AscendC::GlobalTensor<float> srcGm, w3Gm, affGm, skipGm, w1Gm, dstGm;
    ResidualPairConvTiling tl;
    uint32_t hw = 0;
};

extern "C" __global__ __aicore__ void residual_pair_conv(GM_ADDR src, GM_ADDR w3, GM_ADDR affine, GM_ADDR skipSrc,
                                                         GM_ADDR w1, GM_ADDR dst, GM_ADDR tiling)
{
    ResidualPairConvTiling tl;
    auto *d = reinterpret_cast<uint32_t *>(&tl);
    auto *s = reinterpret_cast<__gm__ uint32_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(ResidualPairConvTiling) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
    ResidualPairConv op;
    op.Init(src, w3, affine, skipSrc, w1, dst, tl);
    op.Process();
}
