// LinearSigmoidRowSum: y[i] = sum_j sigmoid(x[i,:] . W[j,:] + b[j])
// Each core owns a (singleCoreM x singleCoreN) block of the logits. The block is
// produced tile by tile by the Matmul API directly into UB, squashed with a
// sigmoid and reduced along the row; partial row sums are atomically added to y.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using MmA = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MmB = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using MmC = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using MmBias = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class LinearSigmoidRowSumKernel {
public:
    __aicore__ inline LinearSigmoidRowSumKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const TCubeTiling &t, uint32_t m)
    {
        tiling = t;
        rows = m;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y, m);

        pipe.InitBuffer(cQueue, 1, tiling.baseM * tiling.baseN * sizeof(float));
        pipe.InitBuffer(sumQueue, 1, AlignUp(tiling.baseM) * sizeof(float));
        pipe.InitBuffer(scratch, (tiling.baseN + 64) * sizeof(float));
    }

    __aicore__ inline TPipe *Pipe() { return &pipe; }

    // y must start at zero before partial sums are accumulated into it
    __aicore__ inline void ZeroOutput()
    {
        if (GetBlockIdx() == 0) {
            InitGlobalMemory(yGm, rows, 0.0f);
        }
        SyncAll();
    }

    __aicore__ inline void Process(Matmul<MmA, MmB, MmC, MmBias> &mm)
    {
        uint32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
        uint32_t blk = GetBlockIdx();
        uint32_t mb = blk % mBlocks;
        uint32_t nb = blk / mBlocks;
        if (mb * tiling.singleCoreM >= (uint32_t)tiling.M || nb * tiling.singleCoreN >= (uint32_t)tiling.N) {
            return;
        }
        curM = Min(tiling.singleCoreM, tiling.M - mb * tiling.singleCoreM);
        curN = Min(tiling.singleCoreN, tiling.N - nb * tiling.singleCoreN);
        rowBase = mb * tiling.singleCoreM;

        mm.SetTensorA(xGm[(uint64_t)rowBase * tiling.Ka]);
        mm.SetTensorB(wGm[(uint64_t)nb * tiling.singleCoreN * tiling.Kb], true);
        mm.SetBias(bGm[nb * tiling.singleCoreN]);
        mm.SetTail(curM, curN);

        uint32_t mIter = (curM + tiling.baseM - 1) / tiling.baseM;
        uint32_t nIter = (curN + tiling.baseN - 1) / tiling.baseN;
        uint32_t step = 0;
        while (mm.Iterate()) {
            LocalTensor<float> c = cQueue.AllocTensor<float>();
            mm.GetTensorC(c, false, true);
            cQueue.EnQue(c);
            // tile position follows the iterate order chosen by the tiling (0: M first)
            uint32_t mi, ni;
            if (tiling.iterateOrder == 0) {
                mi = step % mIter; ni = step / mIter;
            } else {
                ni = step % nIter; mi = step / nIter;
            }
            ReduceTile(mi, ni);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline uint32_t Min(int32_t a, int32_t b) { return (uint32_t)(a < b ? a : b); }
    __aicore__ inline uint32_t AlignUp(uint32_t v) { return (v + 7) / 8 * 8; }

    __aicore__ inline void ReduceTile(uint32_t mi, uint32_t ni)
    {
        uint32_t tileRows = Min(tiling.baseM, curM - mi * tiling.baseM);
        uint32_t tileCols = Min(tiling.baseN, curN - ni * tiling.baseN);
        LocalTensor<float> c = cQueue.DeQue<float>();
        uint32_t cnt = tiling.baseM * tiling.baseN;
        // sigmoid(v) = 1 / (1 + exp(-v)) on the whole tile
        Muls(c, c, -1.0f, cnt);
        Exp(c, c, cnt);
        Adds(c, c, 1.0f, cnt);
        Reciprocal(c, c, cnt);

        LocalTensor<float> sums = sumQueue.AllocTensor<float>();
        LocalTensor<float> work = scratch.Get<float>();
        LocalTensor<float> red = work[tiling.baseN];
        for (uint32_t r = 0; r < tileRows; ++r) {
            ReduceSum(red, c[r * tiling.baseN], work, tileCols);
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            sums.SetValue(r, red.GetValue(0));
        }
        cQueue.FreeTensor(c);
        sumQueue.EnQue(sums);
        sums = sumQueue.DeQue<float>();

        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, tileRows * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[rowBase + mi * tiling.baseM], sums, cp);
        SetAtomicNone();
        sumQueue.FreeTensor(sums);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> cQueue;
    TQue<QuePosition::VECOUT, 1> sumQueue;
    TBuf<TPosition::VECCALC> scratch;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    TCubeTiling tiling;
    uint32_t rows = 0, curM = 0, curN = 0, rowBase = 0;
};

extern "C" __global__ __aicore__ void linear_sigmoid_row_sum(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    LinearSigmoidRowSumKernel kernel;
    kernel.Init(x, weight, bias, y, td.gemm, td.m);
    Matmul<MmA, MmB, MmC, MmBias> mm;
    REGIST_MATMUL_OBJ(kernel.Pipe(), GetSysWorkSpacePtr(), mm, &td.gemm);
    if ASCEND_IS_AIV {
        kernel.ZeroOutput();
    }
    kernel.Process(mm);
}
