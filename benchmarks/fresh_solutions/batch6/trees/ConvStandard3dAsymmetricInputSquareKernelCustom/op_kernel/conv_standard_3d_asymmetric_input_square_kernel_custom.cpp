// kernel: direct 3d conv, kernel (k, k, 1), stride 1, no padding, no bias
#include "kernel_operator.h"
using namespace AscendC;

class Conv3dK {
public:
    __aicore__ inline Conv3dK() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvStandard3dAsymmetricInputSquareKernelCustomTilingData& t)
    {
        ci = t.cin; co = t.cout; H = t.h; W = t.w; D = t.d; K = t.k;
        Ho = t.ho; Wo = t.wo; wc = t.wChunk; nc = t.nChunks;
        nTap = ci * K * K;
        t0 = t.tasksPerCore * GetBlockIdx();
        t1 = t0 + t.tasksPerCore;
        if (t1 > t.tasks) t1 = t.tasks;
        la = (wc * D + 7) / 8 * 8;
        xG.SetGlobalBuffer((__gm__ float*)x);
        wG.SetGlobalBuffer((__gm__ float*)w);
        yG.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(qx, 1, nTap * la * sizeof(float));
        pipe.InitBuffer(qy, 2, la * sizeof(float));
        pipe.InitBuffer(wB, ((co * nTap + 7) / 8 * 8) * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (t0 >= t1) return;
        LocalTensor<float> wl = wB.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(co * nTap * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(wl, wG, cp, pd);
        SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
        for (uint32_t t = t0; t < t1; t++) {
            uint32_t ch = t % nc;
            uint32_t r = t / nc;
            uint32_t oh = r % Ho;
            uint32_t b = r / Ho;
            uint32_t w0 = ch * wc;
            uint32_t cw = (Wo - w0 < wc) ? (Wo - w0) : wc;
            LoadTaps(b, oh, w0, cw * D);
            Compute(wl, b, oh, w0, cw * D);
        }
    }

private:
    __aicore__ inline void LoadTaps(uint32_t b, uint32_t oh, uint32_t w0, uint32_t L)
    {
        LocalTensor<float> xs = qx.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(L * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        uint64_t rowSz = (uint64_t)W * D;
        for (uint32_t c = 0; c < ci; c++) {
            for (uint32_t kh = 0; kh < K; kh++) {
                uint64_t base = (((uint64_t)b * ci + c) * H + oh + kh) * rowSz;
                for (uint32_t kw = 0; kw < K; kw++) {
                    uint32_t s = (c * K + kh) * K + kw;
                    DataCopyPad(xs[s * la], xG[base + (uint64_t)(w0 + kw) * D], cp, pd);
                }
            }
        }
        qx.EnQue(xs);
    }
    __aicore__ inline void Compute(LocalTensor<float>& wl, uint32_t b, uint32_t oh, uint32_t w0, uint32_t L)
    {
        LocalTensor<float> xs = qx.DeQue<float>();
        DataCopyExtParams op{1, static_cast<uint32_t>(L * sizeof(float)), 0, 0, 0};
        uint64_t plane = (uint64_t)Ho * Wo * D;
        for (uint32_t o = 0; o < co; o++) {
            LocalTensor<float> acc = qy.AllocTensor<float>();
            const uint32_t wb = o * nTap;
            Muls(acc, xs, wl.GetValue(wb), L);
            for (uint32_t s = 1; s < nTap; s++) {
                Axpy(acc, xs[s * la], wl.GetValue(wb + s), L);
            }
            qy.EnQue(acc);
            acc = qy.DeQue<float>();
            uint64_t off = ((uint64_t)b * co + o) * plane + ((uint64_t)oh * Wo + w0) * D;
            DataCopyPad(yG[off], acc, op);
            qy.FreeTensor(acc);
        }
        qx.FreeTensor(xs);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qx;
    TQue<QuePosition::VECOUT, 2> qy;
    TBuf<TPosition::VECCALC> wB;
    GlobalTensor<float> xG, wG, yG;
    uint32_t ci, co, H, W, D, K, Ho, Wo, wc, nc, nTap, t0, t1, la;
};

extern "C" __global__ __aicore__ void conv_standard_3d_asymmetric_input_square_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Conv3dK op;
    op.Init(x, weight, y, td);
    op.Process();
}
