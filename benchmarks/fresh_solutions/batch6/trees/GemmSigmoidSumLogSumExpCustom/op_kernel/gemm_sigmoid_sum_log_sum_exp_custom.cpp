// kernel: linear1 -> sigmoid -> linear2 -> row logsumexp, one row slab per core
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using AT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class KernelGsle {
public:
    __aicore__ inline KernelGsle() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w1, GM_ADDR b1, GM_ADDR w2, GM_ADDR b2, GM_ADDR y,
                                GM_ADDR ws, uint32_t bt, uint32_t in, uint32_t hd, uint32_t od,
                                uint32_t per, uint32_t vt)
    {
        H = hd;
        O = od;
        vT = vt;
        r0 = per * GetBlockIdx();
        rows = (r0 >= bt) ? 0 : ((bt - r0 < per) ? (bt - r0) : per);
        xG.SetGlobalBuffer((__gm__ float*)x + (uint64_t)r0 * in);
        w1G.SetGlobalBuffer((__gm__ float*)w1);
        b1G.SetGlobalBuffer((__gm__ float*)b1);
        w2G.SetGlobalBuffer((__gm__ float*)w2);
        b2G.SetGlobalBuffer((__gm__ float*)b2);
        yG.SetGlobalBuffer((__gm__ float*)y + r0);
        hG.SetGlobalBuffer((__gm__ float*)ws + (uint64_t)r0 * hd);
        zG.SetGlobalBuffer((__gm__ float*)ws + (uint64_t)bt * hd + (uint64_t)r0 * od);
        pipe.InitBuffer(qi, 2, vT * sizeof(float));
        pipe.InitBuffer(qo, 2, vT * sizeof(float));
        pipe.InitBuffer(rowB, ((O + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(wkB, ((O + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(sB, 64);
        pipe.InitBuffer(resB, ((per + 7) / 8 * 8) * sizeof(float));
    }
    __aicore__ inline TPipe* Pipe() { return &pipe; }
    template <class MM1, class MM2>
    __aicore__ inline void Process(MM1& mm1, MM2& mm2)
    {
        if (rows == 0) return;
        mm1.SetTail(rows, -1, -1);
        mm1.SetTensorA(xG);
        mm1.SetTensorB(w1G, true);
        mm1.SetBias(b1G);
        mm1.IterateAll(hG);
        mm1.End();
        PipeBarrier<PIPE_ALL>();
        SigmoidPass((uint64_t)rows * H);
        PipeBarrier<PIPE_ALL>();
        mm2.SetTail(rows, -1, -1);
        mm2.SetTensorA(hG);
        mm2.SetTensorB(w2G, true);
        mm2.SetBias(b2G);
        mm2.IterateAll(zG);
        mm2.End();
        PipeBarrier<PIPE_ALL>();
        Lse();
    }

private:
    __aicore__ inline void SigmoidPass(uint64_t n)
    {
        uint32_t cnt = static_cast<uint32_t>((n + vT - 1) / vT);
        for (uint32_t i = 0; i < cnt; i++) {
            uint32_t c = (i == cnt - 1) ? static_cast<uint32_t>(n - (uint64_t)i * vT) : vT;
            uint32_t ca = (c + 7) / 8 * 8;
            LocalTensor<float> a = qi.AllocTensor<float>();
            DataCopy(a, hG[(uint64_t)i * vT], ca);
            qi.EnQue(a);
            a = qi.DeQue<float>();
            LocalTensor<float> r = qo.AllocTensor<float>();
            Sigmoid(r, a, c);
            qo.EnQue(r);
            qi.FreeTensor(a);
            r = qo.DeQue<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(c * sizeof(float)), 0, 0, 0};
            DataCopyPad(hG[(uint64_t)i * vT], r, cp);
            qo.FreeTensor(r);
        }
    }
    __aicore__ inline void Lse()
    {
        LocalTensor<float> row = rowB.Get<float>();
        LocalTensor<float> wk = wkB.Get<float>();
        LocalTensor<float> s = sB.Get<float>();
        LocalTensor<float> res = resB.Get<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(O * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
        for (uint32_t r = 0; r < rows; r++) {
            DataCopyPad(row, zG[(uint64_t)r * O], cp, pd);
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            ReduceMax<float>(s, row, wk, O, false);
            SetFlag<HardEvent::V_S>(EVENT_ID0);
            WaitFlag<HardEvent::V_S>(EVENT_ID0);
            float m = s.GetValue(0);
            SetFlag<HardEvent::S_V>(EVENT_ID0);
            WaitFlag<HardEvent::S_V>(EVENT_ID0);
            Adds(row, row, -m, O);
            Exp(row, row, O);
            ReduceSum<float>(s, row, wk, O);
            Ln(s, s, 1);
            SetFlag<HardEvent::V_S>(EVENT_ID1);
            WaitFlag<HardEvent::V_S>(EVENT_ID1);
            res.SetValue(r, s.GetValue(0) + m);
            SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
        }
        SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
        DataCopyExtParams oc{1, static_cast<uint32_t>(rows * sizeof(float)), 0, 0, 0};
        DataCopyPad(yG, res, oc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> qi;
    TQue<QuePosition::VECOUT, 2> qo;
    TBuf<TPosition::VECCALC> rowB, wkB, sB, resB;
    GlobalTensor<float> xG, w1G, b1G, w2G, b2G, yG, hG, zG;
    uint32_t H, O, vT, r0, rows;
};

extern "C" __global__ __aicore__ void gemm_sigmoid_sum_log_sum_exp_custom(GM_ADDR x, GM_ADDR w1, GM_ADDR b1,
    GM_ADDR w2, GM_ADDR b2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (usr == nullptr) return;
    KernelGsle op;
    Matmul<AT, BT, CT, BiasT> mm1;
    Matmul<AT, BT, CT, BiasT> mm2;
    op.Init(x, w1, b1, w2, b2, y, usr, td.batch, td.inF, td.hidF, td.outF, td.rowsPerCore, td.vecTile);
    REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), mm1, &td.mm1, mm2, &td.mm2);
    op.Process(mm1, mm2);
}
