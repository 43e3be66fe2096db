/**
 * deconv2d_wide_kernel.cpp
 *
 * Transposed 2-D convolution (stride 1, no padding, no dilation, no bias) for an
 * NCHW float input and a (Cin, Cout, KH, KW) weight.  With stride 1 the transposed
 * convolution can be written as a gather:
 *
 *     out[n, co, oh, ow] = sum_{ci, kh, kw} x[n, ci, oh - kh, ow - kw] * w[ci, co, kh, kw]
 *
 * Work split: one "task" is one output row (n, oh) for a chunk of output channels.
 * The accumulator for the chunk (coChunk rows of woutAlign floats) lives in UB for
 * the whole reduction over ci/kh/kw.  For every (ci, kh) the matching input row is
 * pulled in KW times, each time shifted right by kw elements through the left
 * padding of DataCopyPad, so every Axpy starts at a 32B aligned UB address.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct Deconv2dWideKernelTiling {
    uint32_t batch;
    uint32_t cin;
    uint32_t cout;
    uint32_t hin;
    uint32_t win;
    uint32_t kh;
    uint32_t kw;
    uint32_t hout;
    uint32_t wout;
    uint32_t woutAlign;   // wout rounded up to 8 floats
    uint32_t coChunk;     // output channels accumulated together in UB
    uint32_t coBlocks;    // cout / coChunk
    uint32_t totalTasks;  // batch * hout * coBlocks
};

constexpr int32_t BUFFER_NUM = 2;

class Deconv2dWideKernel {
public:
    __aicore__ inline Deconv2dWideKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const Deconv2dWideKernelTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)tl.batch * tl.cin * tl.hin * tl.win);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)tl.cin * tl.cout * tl.kh * tl.kw);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)tl.batch * tl.cout * tl.hout * tl.wout);

        wSliceLen = tl.coChunk * tl.kh * tl.kw;
        wSliceAlign = (wSliceLen + 7) / 8 * 8;

        pipe.InitBuffer(rowQue, BUFFER_NUM, tl.woutAlign * sizeof(float));
        pipe.InitBuffer(wQue, 1, wSliceAlign * sizeof(float));
        pipe.InitBuffer(accQue, 1, tl.coChunk * tl.woutAlign * sizeof(float));

        // static round-robin distribution of tasks over the cores
        uint32_t cores = GetBlockNum();
        uint32_t idx = GetBlockIdx();
        uint32_t per = tl.totalTasks / cores;
        uint32_t rem = tl.totalTasks % cores;
        taskBegin = idx * per + (idx < rem ? idx : rem);
        taskCount = per + (idx < rem ? 1 : 0);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < taskCount; ++t) {
            uint32_t task = taskBegin + t;
            uint32_t cb = task % tl.coBlocks;
            uint32_t rowId = task / tl.coBlocks;     // n * hout + oh
            uint32_t oh = rowId % tl.hout;
            uint32_t n = rowId / tl.hout;
            ComputeRow(n, oh, cb * tl.coChunk);
        }
    }

private:
    __aicore__ inline void ComputeRow(uint32_t n, uint32_t oh, uint32_t co0)
    {
        LocalTensor<float> acc = accQue.AllocTensor<float>();
        Duplicate(acc, 0.0f, tl.coChunk * tl.woutAlign);

        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            // weights w[ci, co0 : co0 + coChunk, :, :] are contiguous in GM
            LocalTensor<float> wLocal = wQue.AllocTensor<float>();
            uint64_t wOff = ((uint64_t)ci * tl.cout + co0) * tl.kh * tl.kw;
            DataCopyExtParams wParams{1, (uint32_t)(wSliceLen * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
            DataCopyPad(wLocal, wGm[wOff], wParams, noPad);
            wQue.EnQue(wLocal);
            wLocal = wQue.DeQue<float>();

            for (uint32_t k = 0; k < tl.kh; ++k) {
                int32_t ih = (int32_t)oh - (int32_t)k;
                if (ih < 0 || ih >= (int32_t)tl.hin) {
                    continue;
                }
                uint64_t xOff = (((uint64_t)n * tl.cin + ci) * tl.hin + ih) * tl.win;
                for (uint32_t s = 0; s < tl.kw; ++s) {
                    CopyInShifted(xOff, s);
                    LocalTensor<float> row = rowQue.DeQue<float>();
                    uint32_t valid = tl.win + s;     // row[j] = x[j - s], j < win + s
                    for (uint32_t c = 0; c < tl.coChunk; ++c) {
                        float wv = wLocal.GetValue((c * tl.kh + k) * tl.kw + s);
                        Axpy(acc[c * tl.woutAlign], row, wv, valid);
                    }
                    rowQue.FreeTensor(row);
                }
            }
            wQue.FreeTensor(wLocal);
        }

        accQue.EnQue(acc);
        acc = accQue.DeQue<float>();
        // coChunk rows of wout floats, strided by a full output plane in GM
        uint64_t yOff = (((uint64_t)n * tl.cout + co0) * tl.hout + oh) * tl.wout;
        DataCopyExtParams outParams;
        outParams.blockCount = (uint16_t)tl.coChunk;
        outParams.blockLen = tl.wout * sizeof(float);
        outParams.srcStride = (tl.woutAlign - tl.wout) * sizeof(float) / 32;
        outParams.dstStride = (tl.hout * tl.wout - tl.wout) * sizeof(float);
        outParams.rsv = 0;
        DataCopyPad(yGm[yOff], acc, outParams);
        accQue.FreeTensor(acc);
    }

    // Loads one input row into UB shifted right by `shift` zeros (shift < 8).
    __aicore__ inline void CopyInShifted(uint64_t xOff, uint32_t shift)
    {
        LocalTensor<float> row = rowQue.AllocTensor<float>();
        DataCopyExtParams p{1, (uint32_t)(tl.win * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, (uint8_t)shift, 0, 0.0f};
        DataCopyPad(row, xGm[xOff], p, pad);
        rowQue.EnQue(row);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQue;
    TQue<QuePosition::VECIN, 1> wQue;
    TQue<QuePosition::VECOUT, 1> accQue;
    GlobalTensor<float> xGm, wGm, yGm;
    Deconv2dWideKernelTiling tl;
    uint32_t wSliceLen = 0;
    uint32_t wSliceAlign = 0;
    uint32_t taskBegin = 0;
    uint32_t taskCount = 0;
};

__aicore__ inline void CopyTiling(Deconv2dWideKernelTiling *dst, GM_ADDR tiling)
{
    uint32_t *d = reinterpret_cast<uint32_t *>(dst);
    __gm__ uint32_t *s = reinterpret_cast<__gm__ uint32_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(Deconv2dWideKernelTiling) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

extern "C" __global__ __aicore__ void deconv2d_wide_kernel(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling)
{
    Deconv2dWideKernelTiling t;
    CopyTiling(&t, tiling);
    Deconv2dWideKernel op;
    op.Init(x, w, y, t);
    op.Process();
}
