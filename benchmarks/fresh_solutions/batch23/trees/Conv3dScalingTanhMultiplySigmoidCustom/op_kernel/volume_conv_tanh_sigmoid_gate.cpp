#include "kernel_operator.h"

// y = sigmoid(post[c] * tanh(pre[c] * (conv3d(x, W) + bias[c])))
// Parallelised over output rows (n, d, h); each row is produced for chPerPass channels at a time.

class VolumeConvGate {
public:
    __aicore__ inline VolumeConvGate() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR pre, GM_ADDR post, GM_ADDR y,
                                const VolumeConvTanhSigmoidGateTilingData& td)
    {
        cfg = td;
        xG.SetGlobalBuffer((__gm__ float*)x);
        wG.SetGlobalBuffer((__gm__ float*)w);
        bG.SetGlobalBuffer((__gm__ float*)b, td.outCh);
        preG.SetGlobalBuffer((__gm__ float*)pre, td.outCh);
        postG.SetGlobalBuffer((__gm__ float*)post, td.outCh);
        yG.SetGlobalBuffer((__gm__ float*)y);
        uint32_t rowBytes = td.rowStride * sizeof(float);
        pipe.InitBuffer(segQ, 2, rowBytes);
        pipe.InitBuffer(resQ, 2, rowBytes);
        pipe.InitBuffer(accB, td.chPerPass * rowBytes);
        pipe.InitBuffer(scratchB, rowBytes);
        planeIn = (uint64_t)td.inH * td.inW;
        volIn = planeIn * td.inD;
        wPerOc = (uint64_t)td.inCh * td.kD * td.kH * td.kW;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = AscendC::GetBlockIdx(); r < cfg.rowCount; r += AscendC::GetBlockNum()) {
            uint32_t h = r % cfg.outH;
            uint32_t d = (r / cfg.outH) % cfg.outD;
            uint32_t n = r / (cfg.outH * cfg.outD);
            for (uint32_t c0 = 0; c0 < cfg.outCh; c0 += cfg.chPerPass) {
                uint32_t cc = (cfg.outCh - c0) < cfg.chPerPass ? (cfg.outCh - c0) : cfg.chPerPass;
                ConvRows(n, d, h, c0, cc);
                Activate(n, d, h, c0, cc);
            }
        }
    }

private:
    __aicore__ inline void ConvRows(uint32_t n, uint32_t d, uint32_t h, uint32_t c0, uint32_t cc)
    {
        AscendC::LocalTensor<float> acc = accB.Get<float>();
        AscendC::Duplicate(acc, 0.0f, cc * cfg.rowStride);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)(cfg.outW * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};

        uint32_t tap = 0;
        for (uint32_t ci = 0; ci < cfg.inCh; ++ci) {
            for (uint32_t a = 0; a < cfg.kD; ++a) {
                for (uint32_t r = 0; r < cfg.kH; ++r) {
                    uint64_t rowBase = n * (uint64_t)cfg.inCh * volIn + ci * volIn +
                                       (d + a) * planeIn + (uint64_t)(h + r) * cfg.inW;
                    for (uint32_t q = 0; q < cfg.kW; ++q, ++tap) {
                        // input segment starting at column q lines up with output columns 0..outW-1
                        AscendC::LocalTensor<float> seg = segQ.AllocTensor<float>();
                        AscendC::DataCopyPad(seg, xG[rowBase + q], cp, noPad);
                        segQ.EnQue(seg);
                        seg = segQ.DeQue<float>();
                        for (uint32_t o = 0; o < cc; ++o) {
                            float wv = wG.GetValue((c0 + o) * wPerOc + tap);
                            AscendC::Axpy(acc[o * cfg.rowStride], seg, wv, cfg.outW);
                        }
                        AscendC::PipeBarrier<PIPE_V>();
                        segQ.FreeTensor(seg);
                    }
                }
            }
        }
    }

    __aicore__ inline void Activate(uint32_t n, uint32_t d, uint32_t h, uint32_t c0, uint32_t cc)
    {
        AscendC::LocalTensor<float> acc = accB.Get<float>();
        AscendC::LocalTensor<float> e = scratchB.Get<float>();
        const uint32_t len = cfg.outW;
        AscendC::DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
        for (uint32_t o = 0; o < cc; ++o) {
            uint32_t c = c0 + o;
            float bias = bG.GetValue(c);
            float pre = preG.GetValue(c);
            float post = postG.GetValue(c);
            AscendC::LocalTensor<float> v = acc[o * cfg.rowStride];
            AscendC::LocalTensor<float> res = resQ.AllocTensor<float>();

            // s = pre * (v + bias); tanh(s) = 1 - 2 / (exp(2s) + 1), exponent clamped for safety
            AscendC::Adds(v, v, bias, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Muls(v, v, 2.0f * pre, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Mins(v, v, 60.0f, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Maxs(v, v, -60.0f, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Exp(e, v, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Adds(e, e, 1.0f, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Reciprocal(e, e, len);
            AscendC::PipeBarrier<PIPE_V>();
            // z = post * tanh = post - 2 * post / (exp(2s) + 1); sigmoid(z) = 1 / (1 + exp(-z))
            AscendC::Muls(e, e, 2.0f * post, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Adds(e, e, -post, len);       // -z
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Exp(e, e, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Adds(e, e, 1.0f, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Reciprocal(res, e, len);

            resQ.EnQue(res);
            res = resQ.DeQue<float>();
            uint64_t dst = (((uint64_t)n * cfg.outCh + c) * cfg.outD + d) * cfg.outH * cfg.outW + (uint64_t)h * cfg.outW;
            AscendC::DataCopyPad(yG[dst], res, cp);
            resQ.FreeTensor(res);
        }
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> segQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> resQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accB, scratchB;
    AscendC::GlobalTensor<float> xG, wG, bG, preG, postG, yG;
    VolumeConvTanhSigmoidGateTilingData cfg;
    uint64_t planeIn = 0, volIn = 0, wPerOc = 0;
};

extern "C" __global__ __aicore__ void volume_conv_tanh_sigmoid_gate(GM_ADDR x, GM_ADDR filter, GM_ADDR conv_bias,
                                                                    GM_ADDR pre_scale, GM_ADDR post_scale, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    VolumeConvGate op;
    op.Init(x, filter, conv_bias, pre_scale, post_scale, y, td);
    op.Process();
}
