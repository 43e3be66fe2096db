// ElmanCellStep: one step of an Elman RNN cell followed by a linear read-out.
//   pre   = [x, h] @ wIh^T + bIh      (cube, split along K into an x part and an h part)
//   h_out = tanh(pre)                 (vector)
//   y     = h_out @ wHo^T + bHo       (cube)
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using MatA = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MatBT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using MatC = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MatBias = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using Gemm = Matmul<MatA, MatBT, MatC, MatBias>;

struct BlockPos {
    uint64_t aOff;
    uint64_t bOff;
    uint64_t cOff;
    uint64_t biasOff;
    int32_t m;
    int32_t n;
    bool valid;
};

// Position of this cube core's output block for C = A @ B^T, B stored [N, Kb].
__aicore__ inline BlockPos LocateBlock(const TCubeTiling &t, uint32_t blk)
{
    BlockPos p{0, 0, 0, 0, 0, 0, false};
    if (blk >= static_cast<uint32_t>(t.usedCoreNum)) {
        return p;
    }
    uint32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    uint32_t mi = blk % mBlocks;
    uint32_t ni = blk / mBlocks;
    int32_t remM = t.M - static_cast<int32_t>(mi) * t.singleCoreM;
    int32_t remN = t.N - static_cast<int32_t>(ni) * t.singleCoreN;
    if (remM <= 0 || remN <= 0) {
        return p;
    }
    p.m = remM < t.singleCoreM ? remM : t.singleCoreM;
    p.n = remN < t.singleCoreN ? remN : t.singleCoreN;
    p.aOff = static_cast<uint64_t>(mi) * t.singleCoreM * t.Ka;
    p.bOff = static_cast<uint64_t>(ni) * t.singleCoreN * t.Kb;
    p.cOff = static_cast<uint64_t>(mi) * t.singleCoreM * t.N + static_cast<uint64_t>(ni) * t.singleCoreN;
    p.biasOff = static_cast<uint64_t>(ni) * t.singleCoreN;
    p.valid = true;
    return p;
}

class ElmanCellStepKernel {
public:
    __aicore__ inline ElmanCellStepKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR h, GM_ADDR wIh, GM_ADDR bIh, GM_ADDR wHo, GM_ADDR bHo,
                                GM_ADDR y, GM_ADDR hOut, GM_ADDR usr, const ElmanCellStepTilingData *td)
    {
        td_ = td;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        hGm.SetGlobalBuffer((__gm__ float *)h);
        wIhGm.SetGlobalBuffer((__gm__ float *)wIh);
        bIhGm.SetGlobalBuffer((__gm__ float *)bIh);
        wHoGm.SetGlobalBuffer((__gm__ float *)wHo);
        bHoGm.SetGlobalBuffer((__gm__ float *)bHo);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        hOutGm.SetGlobalBuffer((__gm__ float *)hOut);
        preGm.SetGlobalBuffer((__gm__ float *)usr);
        cubeIdx = GetBlockIdx() / GetTaskRation();
    }

    // pre = x @ Wx^T + b
    __aicore__ inline void GateGemmX(Gemm &mmX)
    {
        if (GetSubBlockIdx() != 0) {
            return;
        }
        BlockPos px = LocateBlock(td_->gateXTiling, cubeIdx);
        if (px.valid) {
            mmX.SetTensorA(xGm[px.aOff]);
            mmX.SetTensorB(wIhGm[px.bOff], true);
            mmX.SetBias(bIhGm[px.biasOff]);
            mmX.SetTail(px.m, px.n);
            mmX.IterateAll(preGm[px.cOff]);
            mmX.End();
        }
    }

    // pre += h @ Wh^T. The two GEMMs may split the output differently, so this runs
    // only after every core has finished writing its x part.
    __aicore__ inline void GateGemmH(Gemm &mmH)
    {
        if (GetSubBlockIdx() != 0) {
            return;
        }
        BlockPos ph = LocateBlock(td_->gateHTiling, cubeIdx);
        if (ph.valid) {
            // the hidden part of wIh starts I columns into every row
            mmH.SetTensorA(hGm[ph.aOff]);
            mmH.SetTensorB(wIhGm[ph.bOff + td_->inputSize], true);
            mmH.SetTail(ph.m, ph.n);
            mmH.IterateAll(preGm[ph.cOff], 1);  // atomic add onto the x part
            mmH.End();
        }
    }

    // h_out = tanh(pre), spread over every vector core
    __aicore__ inline void Activate()
    {
        uint32_t tile = td_->actTile;
        pipe.InitBuffer(inQ, 2, tile * sizeof(float));
        pipe.InitBuffer(outQ, 2, tile * sizeof(float));
        pipe.InitBuffer(scratch, 2 * tile * sizeof(float));

        uint64_t total = static_cast<uint64_t>(td_->batch) * td_->hiddenSize;
        uint32_t vecNum = GetBlockNum() * GetTaskRation();
        uint64_t share = ((total + vecNum - 1) / vecNum + 7) / 8 * 8;
        uint64_t lo = share * GetBlockIdx();
        uint64_t hi = lo + share < total ? lo + share : total;
        LocalTensor<uint8_t> tmp = scratch.Get<uint8_t>();

        for (uint64_t pos = lo; pos < hi; pos += tile) {
            uint32_t cnt = static_cast<uint32_t>(hi - pos < tile ? hi - pos : tile);
            DataCopyExtParams cp{1, cnt * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            LocalTensor<float> a = inQ.AllocTensor<float>();
            DataCopyPad(a, preGm[pos], cp, DataCopyPadExtParams<float>{false, 0, 0, 0});
            inQ.EnQue(a);
            a = inQ.DeQue<float>();
            LocalTensor<float> r = outQ.AllocTensor<float>();
            Tanh(r, a, tmp, cnt);
            outQ.EnQue(r);
            inQ.FreeTensor(a);
            r = outQ.DeQue<float>();
            DataCopyPad(hOutGm[pos], r, cp);
            outQ.FreeTensor(r);
        }
        pipe.Reset();
    }

    // y = h_out @ wHo^T + bHo
    __aicore__ inline void Project(Gemm &mm)
    {
        if (GetSubBlockIdx() != 0) {
            return;
        }
        BlockPos p = LocateBlock(td_->projTiling, cubeIdx);
        if (!p.valid) {
            return;
        }
        mm.SetTensorA(hOutGm[p.aOff]);
        mm.SetTensorB(wHoGm[p.bOff], true);
        mm.SetBias(bHoGm[p.biasOff]);
        mm.SetTail(p.m, p.n);
        mm.IterateAll(yGm[p.cOff]);
        mm.End();
    }

    TPipe pipe;

private:
    const ElmanCellStepTilingData *td_;
    uint32_t cubeIdx = 0;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> scratch;
    GlobalTensor<float> xGm, hGm, wIhGm, bIhGm, wHoGm, bHoGm, yGm, hOutGm, preGm;
};

extern "C" __global__ __aicore__ void elman_cell_step(GM_ADDR x, GM_ADDR h, GM_ADDR weight_ih, GM_ADDR bias_ih,
                                                      GM_ADDR weight_ho, GM_ADDR bias_ho, GM_ADDR y,
                                                      GM_ADDR h_out, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);

    ElmanCellStepKernel op;
    op.Init(x, h, weight_ih, bias_ih, weight_ho, bias_ho, y, h_out, usr, &td);

    Gemm mmX, mmH;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mmX, &td.gateXTiling, mmH, &td.gateHTiling);
    op.GateGemmX(mmX);
    SyncAll();
    op.GateGemmH(mmH);
    SyncAll();

    op.Activate();
    SyncAll();

    Gemm mmY;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mmY, &td.projTiling);
    op.Project(mmY);
}
