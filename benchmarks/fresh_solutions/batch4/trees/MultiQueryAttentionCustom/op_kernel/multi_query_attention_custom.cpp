// kernel: per block of query rows, S = Q K^T -> scaled softmax in workspace -> P V
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using GmF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmFT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;

class KMqa {
public:
    Matmul<GmF, GmFT, GmF, GmF> mmQk;
    Matmul<GmF, GmF, GmF, GmF> mmPv;

    __aicore__ inline KMqa() {}
    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR o, GM_ADDR uws,
                                const MultiQueryAttentionCustomTilingData &t, TPipe *p)
    {
        pipe = p;
        batch = t.batch; rows = t.rows; kv = t.kvLen; hd = t.headDim;
        br = t.blkRows; bpb = t.blksPerBatch; workers = t.workers; scale = t.scale;
        id = GetBlockIdx();
        kva = (kv + 7) / 8 * 8;
        qg.SetGlobalBuffer((__gm__ float *)q);
        kg.SetGlobalBuffer((__gm__ float *)k);
        vg.SetGlobalBuffer((__gm__ float *)v);
        og.SetGlobalBuffer((__gm__ float *)o);
        sg.SetGlobalBuffer((__gm__ float *)uws + (uint64_t)(id < workers ? id : 0) * br * kv);
        pipe->InitBuffer(qi, 2, kva * sizeof(float));
        pipe->InitBuffer(qo, 2, kva * sizeof(float));
        pipe->InitBuffer(wb, kva * sizeof(float));
        pipe->InitBuffer(sb, 64 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (id < workers) {
            uint32_t jobs = batch * bpb;
            for (uint32_t j = id; j < jobs; j += workers) {
                uint32_t b = j / bpb;
                uint32_t r0 = (j % bpb) * br;
                uint32_t nr = (rows - r0) < br ? (rows - r0) : br;
                Block(b, r0, nr);
            }
        }
        mmQk.End();
        mmPv.End();
    }

private:
    __aicore__ inline void Block(uint32_t b, uint32_t r0, uint32_t nr)
    {
        uint64_t qoff = ((uint64_t)b * rows + r0) * hd;
        uint64_t kvoff = (uint64_t)b * kv * hd;
        mmQk.SetTensorA(qg[qoff]);
        mmQk.SetTensorB(kg[kvoff], true);
        mmQk.SetTail(nr, kv, hd);
        mmQk.IterateAll(sg);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t r = 0; r < nr; r++) {
            RowSoftmax(r);
        }
        PipeBarrier<PIPE_ALL>();
        mmPv.SetTensorA(sg);
        mmPv.SetTensorB(vg[kvoff]);
        mmPv.SetTail(nr, hd, kv);
        mmPv.IterateAll(og[qoff]);
    }
    __aicore__ inline void RowSoftmax(uint32_t r)
    {
        DataCopyExtParams cp{1, kv * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pd{false, 0, 0, 0};
        LocalTensor<float> x = qi.AllocTensor<float>();
        DataCopyPad(x, sg[(uint64_t)r * kv], cp, pd);
        qi.EnQue(x);
        x = qi.DeQue<float>();
        LocalTensor<float> w = wb.Get<float>();
        LocalTensor<float> s = sb.Get<float>();
        LocalTensor<float> y = qo.AllocTensor<float>();
        Muls(x, x, scale, kv);
        ReduceMax(s, x, w, kv, false);
        event_t e1 = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e1);
        WaitFlag<HardEvent::V_S>(e1);
        float mx = s.GetValue(0);
        Adds(x, x, -mx, kv);
        Exp(y, x, kv);
        ReduceSum(s, y, w, kv);
        event_t e2 = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e2);
        WaitFlag<HardEvent::V_S>(e2);
        float inv = 1.0f / s.GetValue(0);
        Muls(y, y, inv, kv);
        qi.FreeTensor(x);
        qo.EnQue(y);
        y = qo.DeQue<float>();
        DataCopyPad(sg[(uint64_t)r * kv], y, cp);
        qo.FreeTensor(y);
    }

    TPipe *pipe;
    TQue<QuePosition::VECIN, 2> qi;
    TQue<QuePosition::VECOUT, 2> qo;
    TBuf<TPosition::VECCALC> wb, sb;
    GlobalTensor<float> qg, kg, vg, og, sg;
    uint32_t batch, rows, kv, kva, hd, br, bpb, workers, id;
    float scale;
};

extern "C" __global__ __aicore__ void multi_query_attention_custom(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR uws = GetUserWorkspace(workspace);
    if (uws == nullptr) {
        return;
    }
    TPipe pipe;
    KMqa op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mmQk, &td.qk, op.mmPv, &td.pv);
    op.Init(q, k, v, out, uws, td, &pipe);
    op.Process();
}
