// LinearGnRowminBias
//   h = x W^T + b                         (cube, into workspace)
//   g = groupnorm(h; G groups) * gamma + beta
//   m[r] = min_c g[r, c]
//   y[0, o, r, 0] = m[r] + bias[o]
// Stage 1 (cube), barrier, stage 2 (row minima), barrier, stage 3 (broadcast add).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

class LinearGnRowminBiasKernel {
public:
    using MT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using WT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    matmul::Matmul<MT, WT, MT, MT> gemm;
    TPipe pipe;

    __aicore__ inline LinearGnRowminBiasKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR lb, GM_ADDR gamma, GM_ADDR beta, GM_ADDR bias,
                                GM_ADDR y, GM_ADDR usr, const LinearGnRowminBiasTilingData &t)
    {
        td = t;
        rows = td.rows;
        feat = td.features;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        lbGm.SetGlobalBuffer((__gm__ float *)lb);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma);
        betaGm.SetGlobalBuffer((__gm__ float *)beta);
        biasGm.SetGlobalBuffer((__gm__ float *)bias);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        hGm.SetGlobalBuffer((__gm__ float *)usr);
        minGm.SetGlobalBuffer((__gm__ float *)usr + static_cast<uint64_t>(rows) * feat);
        vecId = GetBlockIdx();
        vecNum = GetBlockNum() * GetTaskRation();
    }

    __aicore__ inline void Process()
    {
        LinearStage();
        SyncAll<false>();
        RowMinStage();
        SyncAll<false>();
        BroadcastStage();
    }

private:
    // one vector core of each pair drives the cube for its slab
    __aicore__ inline void LinearStage()
    {
        if (GetSubBlockIdx() != 0) {
            return;
        }
        const uint32_t slab = GetBlockIdx() / GetTaskRation();
        if (slab >= td.mBlocks * td.nBlocks) {
            return;
        }
        const TCubeTiling &c = td.gemm;
        const uint32_t mi = slab % td.mBlocks;
        const uint32_t ni = slab / td.mBlocks;
        const uint64_t m0 = static_cast<uint64_t>(mi) * c.singleCoreM;
        const uint64_t n0 = static_cast<uint64_t>(ni) * c.singleCoreN;
        const int32_t mLen = (rows - m0) < c.singleCoreM ? static_cast<int32_t>(rows - m0) : c.singleCoreM;
        const int32_t nLen = (feat - n0) < c.singleCoreN ? static_cast<int32_t>(feat - n0) : c.singleCoreN;
        const uint64_t k = c.Ka;

        gemm.SetTensorA(xGm[m0 * k]);
        gemm.SetTensorB(wGm[n0 * k], true);   // W is (Out, In): rows of W are columns of B
        gemm.SetBias(lbGm[n0]);
        gemm.SetTail(mLen, nLen);
        gemm.IterateAll(hGm[m0 * feat + n0]);
        gemm.End();
    }

    __aicore__ inline void VS()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
    }
    __aicore__ inline void SV()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void RowMinStage()
    {
        const uint32_t gs = td.groupSize;
        const uint32_t gsA = td.groupSizeAlign;
        const uint32_t span = td.groupsPerLoad * gsA;
        pipe.InitBuffer(hQue, 2, span * sizeof(float));
        pipe.InitBuffer(gBuf, span * sizeof(float));
        pipe.InitBuffer(bBuf, span * sizeof(float));
        pipe.InitBuffer(workBuf, span * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        LocalTensor<float> gl = gBuf.Get<float>();
        LocalTensor<float> bl = bBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        const float inv = 1.0f / static_cast<float>(gs);
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};

        for (uint32_t r = vecId; r < rows; r += vecNum) {
            float rowMin = 3.402823466e+38f;
            for (uint32_t g0 = 0; g0 < td.groups; g0 += td.groupsPerLoad) {
                const uint32_t ng = (td.groups - g0) < td.groupsPerLoad ? (td.groups - g0) : td.groupsPerLoad;
                // each group lands on its own 32B-aligned slot in UB
                DataCopyExtParams cp{static_cast<uint16_t>(ng), gs * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
                LocalTensor<float> h = hQue.AllocTensor<float>();
                // gamma/beta slots are overwritten: wait for the vector reads of the previous load
                event_t wv = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
                SetFlag<HardEvent::V_MTE2>(wv);
                WaitFlag<HardEvent::V_MTE2>(wv);
                DataCopyPad(h, hGm[static_cast<uint64_t>(r) * feat + g0 * gs], cp, np);
                DataCopyPad(gl, gammaGm[g0 * gs], cp, np);
                DataCopyPad(bl, betaGm[g0 * gs], cp, np);
                hQue.EnQue(h);
                h = hQue.DeQue<float>();

                for (uint32_t g = 0; g < ng; ++g) {
                    LocalTensor<float> v = h[g * gsA];
                    ReduceSum(red, v, work, gs);
                    VS();
                    const float mean = red.GetValue(0) * inv;
                    SV();
                    Adds(v, v, -mean, gs);
                    Mul(work, v, v, gs);
                    ReduceSum(red[8], work, work, gs);
                    Muls(red[8], red[8], inv, 1);
                    Adds(red[8], red[8], td.epsilon, 1);
                    Rsqrt(red[8], red[8], 1);
                    VS();
                    const float rstd = red.GetValue(8);
                    SV();
                    Muls(v, v, rstd, gs);
                    Mul(v, v, gl[g * gsA], gs);
                    Add(v, v, bl[g * gsA], gs);
                    ReduceMin(red[16], v, work, gs, false);
                    VS();
                    const float gm = red.GetValue(16);
                    rowMin = gm < rowMin ? gm : rowMin;
                }
                hQue.FreeTensor(h);
            }
            red.SetValue(24, rowMin);
            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
            SetFlag<HardEvent::S_MTE3>(e);
            WaitFlag<HardEvent::S_MTE3>(e);
            DataCopyPad(minGm[r], red[24], DataCopyExtParams{1, sizeof(float), 0, 0, 0});
            event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_MTE2));
            SetFlag<HardEvent::MTE3_MTE2>(e2);
            WaitFlag<HardEvent::MTE3_MTE2>(e2);
        }
    }

    // y[o, r] = m[r] + bias[o]; each core owns a set of output features
    __aicore__ inline void BroadcastStage()
    {
        pipe.Reset();
        const uint32_t rAlign = (rows + 7) / 8 * 8;
        pipe.InitBuffer(minBuf, rAlign * sizeof(float));
        pipe.InitBuffer(outQue, 2, rAlign * sizeof(float));
        LocalTensor<float> mins = minBuf.Get<float>();
        DataCopyPad(mins, minGm, DataCopyExtParams{1, rows * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e);
        WaitFlag<HardEvent::MTE2_V>(e);
        for (uint32_t o = vecId; o < feat; o += vecNum) {
            const float b = biasGm.GetValue(o);
            LocalTensor<float> out = outQue.AllocTensor<float>();
            Adds(out, mins, b, rows);
            outQue.EnQue(out);
            out = outQue.DeQue<float>();
            DataCopyPad(yGm[static_cast<uint64_t>(o) * rows], out,
                        DataCopyExtParams{1, rows * static_cast<uint32_t>(sizeof(float)), 0, 0, 0});
            outQue.FreeTensor(out);
        }
    }

    TQue<QuePosition::VECIN, 2> hQue;
    TQue<QuePosition::VECOUT, 2> outQue;
    TBuf<TPosition::VECCALC> gBuf, bBuf, workBuf, redBuf, minBuf;
    GlobalTensor<float> xGm, wGm, lbGm, gammaGm, betaGm, biasGm, yGm, hGm, minGm;
    LinearGnRowminBiasTilingData td;
    uint32_t rows = 0, feat = 0, vecId = 0, vecNum = 1;
};

extern "C" __global__ __aicore__ void linear_gn_rowmin_bias(GM_ADDR x, GM_ADDR weight, GM_ADDR linearBias,
                                                            GM_ADDR gamma, GM_ADDR beta, GM_ADDR bias, GM_ADDR y,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    SetSysWorkspace(workspace);
    GM_ADDR usr = GetUserWorkspace(workspace);
    LinearGnRowminBiasKernel op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.gemm, &td.gemm);
    op.Init(x, weight, linearBias, gamma, beta, bias, y, usr, td);
    op.Process();
}
