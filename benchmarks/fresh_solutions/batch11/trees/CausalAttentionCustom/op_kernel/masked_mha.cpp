// MaskedMha: causal multi-head self-attention with packed input projection.
//
//   qkv = x @ Win^T + bin                      (cube, Matmul API)
//   ctx[b, i, h] = softmax_j<=i(q_i . k_j * scale) @ v    (vector, per query row)
//   y   = ctx @ Wout^T + bout                  (cube, Matmul API)
//
// Mixed AIC/AIV launch; the three stages are separated with SyncAll().
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using MmA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MmB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using ProjMatmul = matmul::Matmul<MmA, MmB, MmA, MmA>;

template <HardEvent EVT>
__aicore__ inline void PipeSync()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EVT));
    SetFlag<EVT>(id);
    WaitFlag<EVT>(id);
}

class MaskedMhaKernel {
public:
    __aicore__ inline MaskedMhaKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR win, GM_ADDR bin, GM_ADDR wout, GM_ADDR bout, GM_ADDR y,
                                GM_ADDR ws, const MaskedMhaTilingData* tiling)
    {
        tp = tiling;
        E = tp->modelDim;
        S = tp->seqLen;
        hd = tp->headDim;
        hdA = tp->headDimAlign;
        uint64_t M = (uint64_t)tp->batch * S;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        winGm.SetGlobalBuffer((__gm__ float*)win);
        binGm.SetGlobalBuffer((__gm__ float*)bin);
        woutGm.SetGlobalBuffer((__gm__ float*)wout);
        boutGm.SetGlobalBuffer((__gm__ float*)bout);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        qkvGm.SetGlobalBuffer((__gm__ float*)ws);
        ctxGm.SetGlobalBuffer((__gm__ float*)ws + M * 3 * E);

        // K (or V) of a whole sequence for one head stays resident: S x hdA floats.
        pipe.InitBuffer(kvBuf, tp->seqAlign * hdA * sizeof(float));
        pipe.InitBuffer(mulBuf, tp->seqAlign * hdA * sizeof(float));
        pipe.InitBuffer(qBuf, hdA * sizeof(float));
        pipe.InitBuffer(oBuf, hdA * sizeof(float));
        pipe.InitBuffer(pBuf, tp->seqAlign * sizeof(float));
        pipe.InitBuffer(redBuf, tp->seqAlign * sizeof(float));
        pipe.InitBuffer(scalarBuf, 32);
    }

    __aicore__ inline void Run(ProjMatmul& mmIn, ProjMatmul& mmOut)
    {
        Project(mmIn, tp->inProj, xGm, winGm, binGm, qkvGm);
        SyncAll();
        Attend();
        SyncAll();
        Project(mmOut, tp->outProj, ctxGm, woutGm, boutGm, yGm);
    }

    TPipe* GetPipe() { return &pipe; }

private:
    __aicore__ inline void Project(ProjMatmul& mm, const TCubeTiling& t, GlobalTensor<float>& a,
                                   GlobalTensor<float>& w, GlobalTensor<float>& bias, GlobalTensor<float>& c)
    {
        if (GetSubBlockIdx() != 0) {
            return;
        }
        uint32_t core = GetBlockIdx() / GetTaskRation();
        uint32_t mTiles = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        uint32_t nTiles = (t.N + t.singleCoreN - 1) / t.singleCoreN;
        if (core >= mTiles * nTiles) {
            return;
        }
        uint32_t mIdx = core % mTiles;
        uint32_t nIdx = core / mTiles;
        int32_t mLeft = t.M - mIdx * t.singleCoreM;
        int32_t nLeft = t.N - nIdx * t.singleCoreN;
        mm.SetTensorA(a[(uint64_t)mIdx * t.singleCoreM * t.Ka]);
        mm.SetTensorB(w[(uint64_t)nIdx * t.singleCoreN * t.Kb], true);
        mm.SetBias(bias[nIdx * t.singleCoreN]);
        mm.SetTail(mLeft < t.singleCoreM ? mLeft : t.singleCoreM, nLeft < t.singleCoreN ? nLeft : t.singleCoreN);
        mm.IterateAll(c[(uint64_t)mIdx * t.singleCoreM * t.N + nIdx * t.singleCoreN]);
        mm.End();
    }

    // Work item = (batch, head). K and V of that head are loaded once and every
    // query row of the sequence is processed against the causal prefix.
    __aicore__ inline void Attend()
    {
        uint32_t items = tp->batch * tp->heads;
        uint32_t me = GetBlockIdx();
        uint32_t stride = tp->aivNum;
        LocalTensor<float> kv = kvBuf.Get<float>();
        LocalTensor<float> prod = mulBuf.Get<float>();
        LocalTensor<float> q = qBuf.Get<float>();
        LocalTensor<float> o = oBuf.Get<float>();
        LocalTensor<float> p = pBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> sv = scalarBuf.Get<float>();

        for (uint32_t it = me; it < items; it += stride) {
            uint32_t b = it / tp->heads;
            uint32_t h = it % tp->heads;
            uint64_t row0 = (uint64_t)b * S;

            for (uint32_t i = 0; i < S; ++i) {
                uint32_t n = i + 1;
                // --- scores against K[0..i]
                PipeSync<HardEvent::V_MTE2>();
                LoadStrided(kv, row0, E + h * hd, n);
                LoadStrided(q, row0 + i, h * hd, 1);
                PipeSync<HardEvent::MTE2_V>();
                Muls(q, q, tp->softmaxScale, hd);
                for (uint32_t j = 0; j < n; ++j) {
                    Mul(prod[j * hdA], kv[j * hdA], q, hd);
                    if (hdA > hd) {
                        Duplicate(prod[j * hdA + hd], 0.0f, hdA - hd);
                    }
                }
                Sum(p, prod, SumParams{n, hdA, hdA});

                // --- numerically stable softmax
                ReduceMax<float>(sv, p, red, n, false);
                PipeSync<HardEvent::V_S>();
                float mx = sv.GetValue(0);
                PipeSync<HardEvent::S_V>();
                Adds(p, p, -mx, n);
                Exp(p, p, n);
                ReduceSum<float>(sv, p, red, n);
                PipeSync<HardEvent::V_S>();
                float rs = 1.0f / sv.GetValue(0);
                PipeSync<HardEvent::S_V>();
                Muls(p, p, rs, n);

                // --- weighted sum of V[0..i]
                PipeSync<HardEvent::V_MTE2>();
                LoadStrided(kv, row0, 2 * E + h * hd, n);
                PipeSync<HardEvent::MTE2_V>();
                PipeSync<HardEvent::V_S>();
                Duplicate(o, 0.0f, hdA);
                for (uint32_t j = 0; j < n; ++j) {
                    Axpy(o, kv[j * hdA], p.GetValue(j), hd);
                }
                PipeSync<HardEvent::V_MTE3>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(hd * sizeof(float)), 0, 0, 0};
                DataCopyPad(ctxGm[(row0 + i) * E + h * hd], o, cp);
                PipeSync<HardEvent::MTE3_V>();
            }
        }
    }

    // rows [r0, r0+n) of the packed qkv buffer, columns [col, col+hd) -> UB rows of hdA
    __aicore__ inline void LoadStrided(LocalTensor<float>& dst, uint64_t r0, uint32_t col, uint32_t n)
    {
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(n);
        cp.blockLen = hd * sizeof(float);
        cp.srcStride = (3 * E - hd) * sizeof(float);
        cp.dstStride = (hdA - hd) * sizeof(float) / 32;
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(dst, qkvGm[r0 * 3 * E + col], cp, pad);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> kvBuf, mulBuf, qBuf, oBuf, pBuf, redBuf, scalarBuf;
    GlobalTensor<float> xGm, winGm, binGm, woutGm, boutGm, yGm, qkvGm, ctxGm;
    const MaskedMhaTilingData* tp = nullptr;
    uint32_t E = 0, S = 0, hd = 0, hdA = 0;
};

extern "C" __global__ __aicore__ void masked_mha(GM_ADDR x, GM_ADDR in_proj_weight, GM_ADDR in_proj_bias,
                                                 GM_ADDR out_proj_weight, GM_ADDR out_proj_bias, GM_ADDR y,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR user = GetUserWorkspace(workspace);
    if (user == nullptr) {
        return;
    }
    MaskedMhaKernel op;
    ProjMatmul mmIn, mmOut;
    REGIST_MATMUL_OBJ(op.GetPipe(), GetSysWorkSpacePtr(), mmIn, &tilingData.inProj, mmOut, &tilingData.outProj);
    op.Init(x, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias, y, user, &tilingData);
    op.Run(mmIn, mmOut);
}
