// kernel: y = LayerNorm(x + residual) * gamma + beta, row-wise
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUF = 2;

class KAddLn {
public:
    __aicore__ inline KAddLn() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR r, GM_ADDR g, GM_ADDR b, GM_ADDR y,
                                uint32_t rows_, uint32_t cols_, uint32_t tr_, float eps_)
    {
        rows = rows_; cols = cols_; tr = tr_; eps = eps_;
        ca = (cols + 7) / 8 * 8;
        uint32_t bn = GetBlockNum(), bi = GetBlockIdx();
        uint32_t per = rows / bn, rem = rows % bn;
        r0 = bi * per + (bi < rem ? bi : rem);
        nr = per + (bi < rem ? 1 : 0);
        xg.SetGlobalBuffer((__gm__ float *)x);
        rg.SetGlobalBuffer((__gm__ float *)r);
        gg.SetGlobalBuffer((__gm__ float *)g);
        bg.SetGlobalBuffer((__gm__ float *)b);
        yg.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(qx, BUF, tr * ca * sizeof(float));
        pipe.InitBuffer(qr, BUF, tr * ca * sizeof(float));
        pipe.InitBuffer(qy, BUF, tr * ca * sizeof(float));
        pipe.InitBuffer(pb, 2 * ca * sizeof(float));
        pipe.InitBuffer(wb, 2 * ca * sizeof(float));
        pipe.InitBuffer(sb, 64 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (nr == 0) return;
        LocalTensor<float> p = pb.Get<float>();
        DataCopyExtParams cp{1, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0};
        DataCopyPad(p, gg, cp, pd);
        DataCopyPad(p[ca], bg, cp, pd);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
        for (uint32_t i = 0; i < nr; i += tr) {
            uint32_t k = (nr - i) < tr ? (nr - i) : tr;
            CopyIn(r0 + i, k);
            Compute(k, p);
            CopyOut(r0 + i, k);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t k)
    {
        LocalTensor<float> a = qx.AllocTensor<float>();
        LocalTensor<float> c = qr.AllocTensor<float>();
        DataCopyExtParams cp{(uint16_t)k, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0};
        DataCopyPad(a, xg[(uint64_t)row * cols], cp, pd);
        DataCopyPad(c, rg[(uint64_t)row * cols], cp, pd);
        qx.EnQue(a);
        qr.EnQue(c);
    }
    __aicore__ inline float Stat(LocalTensor<float> &src, LocalTensor<float> &wk, LocalTensor<float> &s, float add)
    {
        ReduceSum(s, src, wk, cols);
        Muls(s, s, 1.0f / cols, 1);
        Adds(s, s, add, 1);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return s.GetValue(0);
    }
    __aicore__ inline void Compute(uint32_t k, LocalTensor<float> &p)
    {
        LocalTensor<float> a = qx.DeQue<float>();
        LocalTensor<float> c = qr.DeQue<float>();
        LocalTensor<float> o = qy.AllocTensor<float>();
        LocalTensor<float> w = wb.Get<float>();
        LocalTensor<float> sq = w[ca];
        LocalTensor<float> s = sb.Get<float>();
        Add(a, a, c, k * ca);
        for (uint32_t j = 0; j < k; j++) {
            LocalTensor<float> v = a[j * ca];
            float mu = Stat(v, w, s, 0.0f);
            Adds(v, v, -mu, cols);
            Mul(sq, v, v, cols);
            ReduceSum(s, sq, w, cols);
            Muls(s, s, 1.0f / cols, 1);
            Adds(s, s, eps, 1);
            Sqrt(s, s, 1);
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            float rs = 1.0f / s.GetValue(0);
            Muls(v, v, rs, cols);
            Mul(v, v, p, cols);
            Add(o[j * ca], v, p[ca], cols);
        }
        qy.EnQue(o);
        qx.FreeTensor(a);
        qr.FreeTensor(c);
    }
    __aicore__ inline void CopyOut(uint32_t row, uint32_t k)
    {
        LocalTensor<float> o = qy.DeQue<float>();
        DataCopyExtParams cp{(uint16_t)k, cols * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yg[(uint64_t)row * cols], o, cp);
        qy.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUF> qx, qr;
    TQue<QuePosition::VECOUT, BUF> qy;
    TBuf<TPosition::VECCALC> pb, wb, sb;
    GlobalTensor<float> xg, rg, gg, bg, yg;
    uint32_t rows, cols, ca, tr, r0, nr;
    float eps;
};

extern "C" __global__ __aicore__ void vision_transformer_custom(GM_ADDR x, GM_ADDR residual, GM_ADDR gamma, GM_ADDR beta,
                                                                GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KAddLn op;
    op.Init(x, residual, gamma, beta, y, td.rows, td.cols, td.tileRows, td.eps);
    op.Process();
}
