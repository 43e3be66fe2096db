// kernel: C[i, :] = A[i] * B[i, :]
#include "kernel_operator.h"
using namespace AscendC;

class DiagMm {
public:
    __aicore__ inline DiagMm() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t n, uint32_t m, uint32_t rpc,
                                uint32_t rpt, uint32_t ct)
    {
        M = m;
        rpT = rpt;
        cT = ct;
        uint32_t s = rpc * GetBlockIdx();
        nr = (s >= n) ? 0 : ((n - s < rpc) ? (n - s) : rpc);
        aG.SetGlobalBuffer((__gm__ float*)a + s, nr);
        bG.SetGlobalBuffer((__gm__ float*)b + (uint64_t)s * m, (uint64_t)nr * m);
        cG.SetGlobalBuffer((__gm__ float*)c + (uint64_t)s * m, (uint64_t)nr * m);
        uint32_t sz = rpT * cT * sizeof(float);
        pipe.InitBuffer(qIn, 2, sz);
        pipe.InitBuffer(qOut, 2, sz);
        pipe.InitBuffer(dB, ((nr + 7) / 8 * 8 + 8) * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (nr == 0) return;
        LocalTensor<float> d = dB.Get<float>();
        DataCopyExtParams dp{1, static_cast<uint32_t>(nr * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(d, aG, dp, pp);
        SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
        uint32_t cc = (M + cT - 1) / cT;
        for (uint32_t r = 0; r < nr; r += rpT) {
            uint32_t rr = (nr - r < rpT) ? (nr - r) : rpT;
            for (uint32_t j = 0; j < cc; j++) {
                uint32_t w = (j == cc - 1) ? (M - j * cT) : cT;
                Load(r, rr, j * cT, w);
                Scale(d, r, rr, w);
                Store(r, rr, j * cT, w);
            }
        }
    }

private:
    __aicore__ inline void Load(uint32_t r, uint32_t rr, uint32_t c0, uint32_t w)
    {
        LocalTensor<float> x = qIn.AllocTensor<float>();
        uint32_t wa = (w + 7) / 8 * 8;
        DataCopyExtParams p{static_cast<uint16_t>(rr), static_cast<uint32_t>(w * sizeof(float)),
                            static_cast<uint32_t>((M - w) * sizeof(float)), static_cast<uint32_t>((wa - w) / 8), 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(x, bG[(uint64_t)r * M + c0], p, pd);
        qIn.EnQue(x);
    }
    __aicore__ inline void Scale(LocalTensor<float>& d, uint32_t r, uint32_t rr, uint32_t w)
    {
        LocalTensor<float> x = qIn.DeQue<float>();
        LocalTensor<float> y = qOut.AllocTensor<float>();
        uint32_t wa = (w + 7) / 8 * 8;
        for (uint32_t i = 0; i < rr; i++) {
            float s = d.GetValue(r + i);
            Muls(y[i * wa], x[i * wa], s, w);
        }
        qOut.EnQue(y);
        qIn.FreeTensor(x);
    }
    __aicore__ inline void Store(uint32_t r, uint32_t rr, uint32_t c0, uint32_t w)
    {
        LocalTensor<float> y = qOut.DeQue<float>();
        uint32_t wa = (w + 7) / 8 * 8;
        DataCopyExtParams p{static_cast<uint16_t>(rr), static_cast<uint32_t>(w * sizeof(float)),
                            static_cast<uint32_t>((wa - w) / 8), static_cast<uint32_t>((M - w) * sizeof(float)), 0};
        DataCopyPad(cG[(uint64_t)r * M + c0], y, p);
        qOut.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qIn;
    TQue<QuePosition::VECOUT, 2> qOut;
    TBuf<TPosition::VECCALC> dB;
    GlobalTensor<float> aG, bG, cG;
    uint32_t M, rpT, cT, nr;
};

extern "C" __global__ __aicore__ void matmul_with_diagonal_matrices_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    DiagMm op;
    op.Init(a, b, c, td.n, td.m, td.rowsPerCore, td.rowsPerTile, td.colTile);
    op.Process();
}
