/*
 * Deconv3dReluGroupNorm kernel.
 *
 * One work item = one (sample, group) pair. For a work item the core
 *   1. computes the transposed convolution (stride 1, no padding) for all channels of the group,
 *      one output row (od, oh) at a time, applies ReLU, writes the row to y and accumulates the
 *      running sum / sum of squares of the group;
 *   2. re-reads the group's channels from y and applies (v - mean) * rstd * gamma + beta in place.
 *
 * The inner product is vectorised over the output width: for a fixed input row the K shifted
 * copies x[iw - kw] are produced by DataCopyPad with kw zeros of left padding, so each tap is a
 * plain Axpy on 32B aligned buffers.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
}

class Deconv3dReluGroupNormKernel {
public:
    __aicore__ inline Deconv3dReluGroupNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const Deconv3dReluGroupNormTilingData &t)
    {
        n_ = t.batch; cin_ = t.inChannels; cout_ = t.outChannels;
        d_ = t.inD; h_ = t.inH; w_ = t.inW; k_ = t.kSize;
        od_ = t.outD; oh_ = t.outH; ow_ = t.outW; owAlign_ = t.outWAlign;
        groups_ = t.numGroups; cg_ = t.chPerGroup;
        eps_ = t.eps; normTile_ = t.normTile;
        k3_ = k_ * k_ * k_;

        uint32_t first = GetBlockIdx() * t.jobsPerCore;
        jobBegin_ = first < t.totalJobs ? first : t.totalJobs;
        uint32_t last = jobBegin_ + t.jobsPerCore;
        jobEnd_ = last < t.totalJobs ? last : t.totalJobs;

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)weight);
        gammaGm_.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm_.SetGlobalBuffer((__gm__ float *)beta);
        yGm_.SetGlobalBuffer((__gm__ float *)y);

        uint32_t wSlab = (cg_ * k3_ + 7) / 8 * 8;
        pipe_.InitBuffer(shiftQue_, BUFFER_NUM, k_ * owAlign_ * sizeof(float));
        pipe_.InitBuffer(wQue_, 1, wSlab * sizeof(float));
        pipe_.InitBuffer(outQue_, 1, cg_ * owAlign_ * sizeof(float));
        pipe_.InitBuffer(accBuf_, cg_ * owAlign_ * sizeof(float));
        pipe_.InitBuffer(sqBuf_, cg_ * owAlign_ * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64 * sizeof(float));
        pipe_.InitBuffer(normInQue_, BUFFER_NUM, normTile_ * sizeof(float));
        pipe_.InitBuffer(normOutQue_, BUFFER_NUM, normTile_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t job = jobBegin_; job < jobEnd_; ++job) {
            uint32_t b = job / groups_;
            uint32_t g = job % groups_;
            float sum = 0.0f;
            float sumSq = 0.0f;
            for (uint32_t zo = 0; zo < od_; ++zo) {
                for (uint32_t yo = 0; yo < oh_; ++yo) {
                    ComputeRow(b, g, zo, yo, sum, sumSq);
                }
            }
            // make sure every row of this group reached GM before it is read back
            PipeBarrier<PIPE_ALL>();
            Normalize(b, g, sum, sumSq);
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    __aicore__ inline void ComputeRow(uint32_t b, uint32_t g, uint32_t zo, uint32_t yo, float &sum, float &sumSq)
    {
        LocalTensor<float> acc = accBuf_.Get<float>();
        Duplicate(acc, 0.0f, cg_ * owAlign_);

        for (uint32_t ic = 0; ic < cin_; ++ic) {
            // weight layout [Cin, Cout, K, K, K]: the group's channels are one contiguous slab
            LocalTensor<float> wLocal = wQue_.AllocTensor<float>();
            DataCopyExtParams wp{1, static_cast<uint32_t>(cg_ * k3_ * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> wpad{false, 0, 0, 0.0f};
            DataCopyPad(wLocal, wGm_[(static_cast<uint64_t>(ic) * cout_ + g * cg_) * k3_], wp, wpad);
            wQue_.EnQue(wLocal);
            wLocal = wQue_.DeQue<float>();

            for (uint32_t kd = 0; kd < k_; ++kd) {
                int32_t zi = static_cast<int32_t>(zo) - static_cast<int32_t>(kd);
                if (zi < 0 || zi >= static_cast<int32_t>(d_)) {
                    continue;
                }
                for (uint32_t kh = 0; kh < k_; ++kh) {
                    int32_t yi = static_cast<int32_t>(yo) - static_cast<int32_t>(kh);
                    if (yi < 0 || yi >= static_cast<int32_t>(h_)) {
                        continue;
                    }
                    uint64_t rowOff = ((static_cast<uint64_t>(b) * cin_ + ic) * d_ + zi) * h_ * w_ +
                                      static_cast<uint64_t>(yi) * w_;
                    LoadShifted(rowOff);
                    LocalTensor<float> sh = shiftQue_.DeQue<float>();
                    for (uint32_t c = 0; c < cg_; ++c) {
                        uint32_t wBase = c * k3_ + (kd * k_ + kh) * k_;
                        for (uint32_t kw = 0; kw < k_; ++kw) {
                            float coef = wLocal.GetValue(wBase + kw);
                            Axpy(acc[c * owAlign_], sh[kw * owAlign_], coef, ow_);
                        }
                    }
                    shiftQue_.FreeTensor(sh);
                }
            }
            wQue_.FreeTensor(wLocal);
        }

        // ReLU, statistics and write-back of the Cg rows
        LocalTensor<float> out = outQue_.AllocTensor<float>();
        LocalTensor<float> sq = sqBuf_.Get<float>();
        LocalTensor<float> red = redBuf_.Get<float>();
        uint32_t cnt = cg_ * owAlign_;      // pad columns are zero and do not disturb the sums
        Relu(out, acc, cnt);
        ReduceSum(red, out, sq, cnt);
        sum += red.GetValue(0);
        Mul(sq, out, out, cnt);
        ReduceSum(red, sq, acc, cnt);
        sumSq += red.GetValue(0);
        outQue_.EnQue(out);

        out = outQue_.DeQue<float>();
        uint64_t plane = static_cast<uint64_t>(od_) * oh_ * ow_;
        uint64_t dst = (static_cast<uint64_t>(b) * cout_ + g * cg_) * plane +
                       (static_cast<uint64_t>(zo) * oh_ + yo) * ow_;
        DataCopyExtParams op{static_cast<uint16_t>(cg_), static_cast<uint32_t>(ow_ * sizeof(float)), 0,
                             static_cast<uint32_t>((plane - ow_) * sizeof(float)), 0};
        DataCopyPad(yGm_[dst], out, op);
        outQue_.FreeTensor(out);
    }

    // shifted[kw][j] = x[row][j - kw] (zero outside), j in [0, outW)
    __aicore__ inline void LoadShifted(uint64_t rowOff)
    {
        LocalTensor<float> sh = shiftQue_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(w_ * sizeof(float)), 0, 0, 0};
        for (uint32_t kw = 0; kw < k_; ++kw) {
            DataCopyPadExtParams<float> pad{true, static_cast<uint8_t>(kw),
                                            static_cast<uint8_t>(k_ - 1 - kw), 0.0f};
            DataCopyPad(sh[kw * owAlign_], xGm_[rowOff], cp, pad);
        }
        shiftQue_.EnQue(sh);
    }

    __aicore__ inline void Normalize(uint32_t b, uint32_t g, float sum, float sumSq)
    {
        uint64_t plane = static_cast<uint64_t>(od_) * oh_ * ow_;
        float count = static_cast<float>(plane * cg_);
        float mean = sum / count;
        float var = sumSq / count - mean * mean;
        if (var < 0.0f) {
            var = 0.0f;
        }
        // rstd via a one-element vector sqrt (no scalar sqrt on the AI core)
        LocalTensor<float> red = redBuf_.Get<float>();
        Duplicate(red, var + eps_, 8);
        Sqrt(red, red, 8);
        float rstd = 1.0f / red.GetValue(0);

        for (uint32_t c = 0; c < cg_; ++c) {
            uint32_t ch = g * cg_ + c;
            float scale = gammaGm_.GetValue(ch) * rstd;
            float shift = betaGm_.GetValue(ch) - mean * scale;
            uint64_t base = (static_cast<uint64_t>(b) * cout_ + ch) * plane;
            for (uint64_t off = 0; off < plane; off += normTile_) {
                uint32_t len = static_cast<uint32_t>((plane - off) < normTile_ ? (plane - off) : normTile_);
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                LocalTensor<float> vin = normInQue_.AllocTensor<float>();
                DataCopyPad(vin, yGm_[base + off], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                normInQue_.EnQue(vin);

                vin = normInQue_.DeQue<float>();
                LocalTensor<float> vout = normOutQue_.AllocTensor<float>();
                Muls(vout, vin, scale, len);
                Adds(vout, vout, shift, len);
                normOutQue_.EnQue(vout);
                normInQue_.FreeTensor(vin);

                vout = normOutQue_.DeQue<float>();
                DataCopyPad(yGm_[base + off], vout, cp);
                normOutQue_.FreeTensor(vout);
            }
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> shiftQue_;
    TQue<QuePosition::VECIN, 1> wQue_;
    TQue<QuePosition::VECOUT, 1> outQue_;
    TQue<QuePosition::VECIN, BUFFER_NUM> normInQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> normOutQue_;
    TBuf<TPosition::VECCALC> accBuf_, sqBuf_, redBuf_;

    GlobalTensor<float> xGm_, wGm_, gammaGm_, betaGm_, yGm_;

    uint32_t n_, cin_, cout_, d_, h_, w_, k_, k3_;
    uint32_t od_, oh_, ow_, owAlign_;
    uint32_t groups_, cg_, normTile_;
    uint32_t jobBegin_, jobEnd_;
    float eps_;
};

extern "C" __global__ __aicore__ void deconv3d_relu_group_norm(GM_ADDR x, GM_ADDR weight, GM_ADDR gamma,
                                                               GM_ADDR beta, GM_ADDR y, GM_ADDR workspace,
                                                               GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Deconv3dReluGroupNormKernel op;
    op.Init(x, weight, gamma, beta, y, tilingData);
    op.Process();
}
