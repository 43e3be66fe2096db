// kernel: smooth L1 loss, mean reduction, atomic accumulate per core
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;

class KernelHuber {
public:
    __aicore__ inline KernelHuber() {}
    __aicore__ inline void Init(GM_ADDR p, GM_ADDR q, GM_ADDR y, uint64_t total, uint64_t per,
                                uint32_t tile, float beta, float inv)
    {
        uint64_t st = per * GetBlockIdx();
        len = (st >= total) ? 0 : ((total - st < per) ? (total - st) : per);
        tl = tile;
        b = beta;
        sc = inv;
        pG.SetGlobalBuffer((__gm__ float*)p + st, len);
        tG.SetGlobalBuffer((__gm__ float*)q + st, len);
        yG.SetGlobalBuffer((__gm__ float*)y, 1);
        pipe.InitBuffer(qp, BUF, tl * sizeof(float));
        pipe.InitBuffer(qt, BUF, tl * sizeof(float));
        pipe.InitBuffer(qo, 1, 32);
        pipe.InitBuffer(accB, tl * sizeof(float));
        pipe.InitBuffer(tmpB, tl * sizeof(float));
        pipe.InitBuffer(wkB, tl * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> acc = accB.Get<float>();
        Duplicate(acc, 0.0f, tl);
        uint32_t n = static_cast<uint32_t>((len + tl - 1) / tl);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t c = (i == n - 1) ? static_cast<uint32_t>(len - (uint64_t)i * tl) : tl;
            CopyIn(i, c);
            Compute(c);
        }
        LocalTensor<float> o = qo.AllocTensor<float>();
        LocalTensor<float> wk = wkB.Get<float>();
        ReduceSum<float>(o, acc, wk, tl);
        Muls(o, o, sc, 1);
        qo.EnQue(o);
        o = qo.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, sizeof(float), 0, 0, 0};
        DataCopyPad(yG, o, cp);
        SetAtomicNone();
        qo.FreeTensor(o);
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t c)
    {
        LocalTensor<float> a = qp.AllocTensor<float>();
        LocalTensor<float> t = qt.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(c * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        DataCopyPad(a, pG[(uint64_t)i * tl], cp, pd);
        DataCopyPad(t, tG[(uint64_t)i * tl], cp, pd);
        qp.EnQue(a);
        qt.EnQue(t);
    }
    __aicore__ inline void Compute(uint32_t c)
    {
        LocalTensor<float> a = qp.DeQue<float>();
        LocalTensor<float> t = qt.DeQue<float>();
        LocalTensor<float> m = tmpB.Get<float>();
        LocalTensor<float> acc = accB.Get<float>();
        Sub(a, a, t, c);
        Abs(a, a, c);
        Mins(m, a, b, c);
        Muls(t, m, 0.5f, c);
        Sub(t, a, t, c);
        Mul(t, t, m, c);
        if (b != 1.0f) {
            Muls(t, t, 1.0f / b, c);
        }
        Add(acc, acc, t, c);
        qp.FreeTensor(a);
        qt.FreeTensor(t);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUF> qp, qt;
    TQue<QuePosition::VECOUT, 1> qo;
    TBuf<TPosition::VECCALC> accB, tmpB, wkB;
    GlobalTensor<float> pG, tG, yG;
    uint64_t len;
    uint32_t tl;
    float b, sc;
};

extern "C" __global__ __aicore__ void huber_loss_custom(GM_ADDR predictions, GM_ADDR targets, GM_ADDR loss,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelHuber op;
    op.Init(predictions, targets, loss, td.total, td.perCore, td.tileLen, td.beta, td.invTotal);
    op.Process();
}
