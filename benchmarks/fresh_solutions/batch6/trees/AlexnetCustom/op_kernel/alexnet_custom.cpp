// kernel: y = relu(x * W^T + b) for the AlexNet classifier layers
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using XT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using WT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using YT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class FcRelu {
public:
    __aicore__ inline FcRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const TCubeTiling& t,
                                uint32_t relu, uint32_t ve)
    {
        tl = t;
        act = relu;
        N = t.N;
        uint32_t idx = GetBlockIdx();
        uint32_t mBlk = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        uint32_t mi = idx % mBlk, ni = idx / mBlk;
        int32_t rm = t.M - (int32_t)(mi * t.singleCoreM);
        int32_t rn = t.N - (int32_t)(ni * t.singleCoreN);
        bm = rm < t.singleCoreM ? rm : t.singleCoreM;
        bn = rn < t.singleCoreN ? rn : t.singleCoreN;
        xG.SetGlobalBuffer((__gm__ float*)x + (uint64_t)mi * t.singleCoreM * t.Ka);
        wG.SetGlobalBuffer((__gm__ float*)w + (uint64_t)ni * t.singleCoreN * t.Kb);
        bG.SetGlobalBuffer((__gm__ float*)b + (uint64_t)ni * t.singleCoreN);
        yG.SetGlobalBuffer((__gm__ float*)y + (uint64_t)mi * t.singleCoreM * t.N + (uint64_t)ni * t.singleCoreN);
        if (act && bm > 0 && bn > 0) {
            bnA = (bn + 7) / 8 * 8;
            rpt = ve / bnA;
            if (rpt == 0) rpt = 1;
            if (rpt > (uint32_t)bm) rpt = bm;
            pipe.InitBuffer(qi, 2, rpt * bnA * sizeof(float));
            pipe.InitBuffer(qo, 2, rpt * bnA * sizeof(float));
        }
    }
    template <class MM>
    __aicore__ inline void Process(MM& mm)
    {
        if (bm <= 0 || bn <= 0) return;
        mm.SetTail(bm, bn);
        mm.SetTensorA(xG);
        mm.SetTensorB(wG, true);
        mm.SetBias(bG);
        mm.IterateAll(yG);
        mm.End();
        if (!act) return;
        PipeBarrier<PIPE_ALL>();
        for (uint32_t r = 0; r < (uint32_t)bm; r += rpt) {
            uint32_t rr = ((uint32_t)bm - r < rpt) ? ((uint32_t)bm - r) : rpt;
            LocalTensor<float> a = qi.AllocTensor<float>();
            DataCopyExtParams ip{static_cast<uint16_t>(rr), static_cast<uint32_t>(bn * sizeof(float)),
                                 static_cast<uint32_t>((N - bn) * sizeof(float)), 0, 0};
            DataCopyPadExtParams<float> pd{false, 0, 0, 0.0f};
            DataCopyPad(a, yG[(uint64_t)r * N], ip, pd);
            qi.EnQue(a);
            a = qi.DeQue<float>();
            LocalTensor<float> o = qo.AllocTensor<float>();
            Relu(o, a, rr * bnA);
            qo.EnQue(o);
            qi.FreeTensor(a);
            o = qo.DeQue<float>();
            DataCopyExtParams op{static_cast<uint16_t>(rr), static_cast<uint32_t>(bn * sizeof(float)), 0,
                                 static_cast<uint32_t>((N - bn) * sizeof(float)), 0};
            DataCopyPad(yG[(uint64_t)r * N], o, op);
            qo.FreeTensor(o);
        }
    }

    TPipe pipe;
    TCubeTiling tl;

private:
    TQue<QuePosition::VECIN, 2> qi;
    TQue<QuePosition::VECOUT, 2> qo;
    GlobalTensor<float> xG, wG, bG, yG;
    uint32_t act, N, bnA, rpt;
    int32_t bm, bn;
};

extern "C" __global__ __aicore__ void alexnet_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetBlockIdx() >= td.blocks) return;
    FcRelu op;
    Matmul<XT, WT, YT, BT> mm;
    op.Init(x, weight, bias, y, td.mm, td.relu, td.vecElems);
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mm, &op.tl);
    op.Process(mm);
}
