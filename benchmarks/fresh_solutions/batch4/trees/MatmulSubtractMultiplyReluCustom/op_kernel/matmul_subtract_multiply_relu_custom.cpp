// kernel: y = relu((x @ W^T + b - sub) * mul), epilogue fused per base block
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

class KMmSubMulRelu {
public:
    using AT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CT = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<AT, BT, CT, BiasT> mm;

    __aicore__ inline KMmSubMulRelu() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling &tl,
                                float sv, float mv, TPipe *p)
    {
        tiling = tl;
        sub = sv;
        mul = mv;
        pipe = p;
        uint32_t M = tiling.M, N = tiling.N, K = tiling.Ka;
        uint32_t mBlk = CeilDiv(M, tiling.singleCoreM);
        uint32_t idx = GetBlockIdx();
        active = idx < (uint32_t)tiling.usedCoreNum;
        uint32_t mi = idx % mBlk, ni = idx / mBlk;
        m0 = mi * tiling.singleCoreM;
        n0 = ni * tiling.singleCoreN;
        if (m0 >= M || n0 >= N) active = false;
        tm = (M - m0) < (uint32_t)tiling.singleCoreM ? (M - m0) : tiling.singleCoreM;
        tn = (N - n0) < (uint32_t)tiling.singleCoreN ? (N - n0) : tiling.singleCoreN;
        ag.SetGlobalBuffer((__gm__ float *)a + (uint64_t)m0 * K);
        bg.SetGlobalBuffer((__gm__ float *)b + (uint64_t)n0 * K);
        zg.SetGlobalBuffer((__gm__ float *)bias + n0);
        cg.SetGlobalBuffer((__gm__ float *)c);
        pipe->InitBuffer(qc, 2, tiling.baseM * tiling.baseN * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (!active) {
            mm.End();
            return;
        }
        mm.SetTensorA(ag);
        mm.SetTensorB(bg, true);
        mm.SetBias(zg);
        mm.SetTail(tm, tn);
        uint32_t bm = tiling.baseM, bn = tiling.baseN;
        uint32_t mIt = CeilDiv(tm, bm), nIt = CeilDiv(tn, bn);
        uint32_t cnt = 0;
        while (mm.Iterate()) {
            uint32_t mi, ni;
            if (tiling.iterateOrder == 0) {
                mi = cnt % mIt; ni = cnt / mIt;
            } else {
                ni = cnt % nIt; mi = cnt / nIt;
            }
            LocalTensor<float> blk = qc.AllocTensor<float>();
            mm.GetTensorC(blk);
            qc.EnQue(blk);
            blk = qc.DeQue<float>();
            uint32_t sz = bm * bn;
            Adds(blk, blk, -sub, sz);
            Muls(blk, blk, mul, sz);
            Relu(blk, blk, sz);
            uint32_t rm = (tm - mi * bm) < bm ? (tm - mi * bm) : bm;
            uint32_t rn = (tn - ni * bn) < bn ? (tn - ni * bn) : bn;
            event_t ev = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(ev);
            WaitFlag<HardEvent::V_MTE3>(ev);
            uint64_t off = (uint64_t)(m0 + mi * bm) * tiling.N + n0 + ni * bn;
            DataCopyExtParams cp{(uint16_t)rm, rn * (uint32_t)sizeof(float),
                                 bn / 8 - (rn + 7) / 8, (tiling.N - rn) * (uint32_t)sizeof(float), 0};
            DataCopyPad(cg[off], blk, cp);
            qc.FreeTensor(blk);
            cnt++;
        }
        mm.End();
    }

private:
    TPipe *pipe;
    TCubeTiling tiling;
    TQue<QuePosition::VECIN, 2> qc;
    GlobalTensor<float> ag, bg, zg, cg;
    uint32_t m0, n0, tm, tn;
    float sub, mul;
    bool active;
};

extern "C" __global__ __aicore__ void matmul_subtract_multiply_relu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    KMmSubMulRelu op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    op.Init(x, weight, bias, y, td.cube, td.subVal, td.mulVal, &pipe);
    op.Process();
}
