// Grouped-query attention: num_heads query heads share num_kv_heads key/value heads.
//
// stage 1 (cube):   Q = x Wq^T + bq,  K = x Wk^T + bk,  V = x Wv^T + bv
// stage 2 (vector): for every (batch, kv head) the K/V head is loaded once and
//                   reused by all query heads of its group
// stage 3 (cube):   y = A Wo^T + bo
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
using GmND = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmNDTrans = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using DenseMM = matmul::Matmul<GmND, GmNDTrans, GmND, GmND>;

constexpr float NEG_BIG = -3.0e38f;

__aicore__ inline uint32_t Up8(uint32_t v) { return (v + 7u) & ~7u; }
__aicore__ inline uint32_t MinU(uint32_t a, uint32_t b) { return a < b ? a : b; }
}

// Splits the [M, N] result of one linear layer into cube tiles and runs this core's share.
__aicore__ inline void DenseLayer(DenseMM &mm, const TCubeTiling &tc, const GlobalTensor<float> &act,
                                  const GlobalTensor<float> &weight, const GlobalTensor<float> &bias,
                                  const GlobalTensor<float> &dst, uint32_t cores)
{
    uint32_t tilesM = (tc.M + tc.singleCoreM - 1) / tc.singleCoreM;
    uint32_t tilesN = (tc.N + tc.singleCoreN - 1) / tc.singleCoreN;
    for (uint32_t tile = GetBlockIdx(); tile < tilesM * tilesN; tile += cores) {
        uint32_t row0 = (tile / tilesN) * tc.singleCoreM;
        uint32_t col0 = (tile % tilesN) * tc.singleCoreN;
        mm.SetTail(MinU(tc.singleCoreM, tc.M - row0), MinU(tc.singleCoreN, tc.N - col0));
        mm.SetTensorA(act[static_cast<uint64_t>(row0) * tc.Ka]);
        mm.SetTensorB(weight[static_cast<uint64_t>(col0) * tc.Kb], true);
        mm.SetBias(bias[col0]);
        mm.IterateAll(dst[static_cast<uint64_t>(row0) * tc.N + col0]);
    }
    mm.End();
}

class SharedKvAttentionKernel {
public:
    __aicore__ inline SharedKvAttentionKernel() {}

    __aicore__ inline void Setup(GM_ADDR usr, const SharedKvAttentionTiling &t)
    {
        B = t.batch; L = t.seqLen; D = t.model;
        Hq = t.qHeads; Hkv = t.kvHeads; dh = t.headDim; Dkv = t.kvModel;
        groupSize = Hq / Hkv;
        scale = t.softmaxScale;
        cores = t.aivNum;

        uint64_t rows = static_cast<uint64_t>(B) * L;
        __gm__ float *base = (__gm__ float *)usr;
        qWs.SetGlobalBuffer(base);
        kWs.SetGlobalBuffer(base + rows * D);
        vWs.SetGlobalBuffer(base + rows * (D + Dkv));
        aWs.SetGlobalBuffer(base + rows * (D + 2 * Dkv));
    }

    __aicore__ inline void HeadAttention()
    {
        uint32_t kvElems = Up8(L * dh);
        pipe.InitBuffer(kvInQ, 2, kvElems * sizeof(float));          // raw K, then V
        pipe.InitBuffer(keyT, kvElems * sizeof(float));              // K^T  [dh][L]
        pipe.InitBuffer(valBuf, kvElems * sizeof(float));            // V    [L][dh]
        pipe.InitBuffer(qInQ, 2, Up8(dh) * sizeof(float));
        pipe.InitBuffer(aOutQ, 2, Up8(dh) * sizeof(float));
        pipe.InitBuffer(probBuf, Up8(L) * sizeof(float));
        pipe.InitBuffer(scratch, (Up8(L) + 64) * sizeof(float));

        for (uint32_t job = GetBlockIdx(); job < B * Hkv; job += cores) {
            uint32_t b = job / Hkv;
            uint32_t g = job % Hkv;
            StageKeyValue(b, g);
            for (uint32_t r = 0; r < groupSize; ++r) {
                uint32_t hq = g * groupSize + r;   // repeat_interleave: query head -> kv head hq / group
                for (uint32_t i = 0; i < L; ++i) {
                    OneQuery(b, hq, i);
                }
            }
        }
    }

    TPipe pipe;
    GlobalTensor<float> qWs, kWs, vWs, aWs;

private:
    template <HardEvent E>
    __aicore__ inline void Barrier()
    {
        event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline void StageKeyValue(uint32_t b, uint32_t g)
    {
        // one kv head is a [L, dh] column strip of the [B*L, Dkv] projection
        uint64_t off = static_cast<uint64_t>(b) * L * Dkv + g * dh;
        DataCopyExtParams strip{static_cast<uint16_t>(L), static_cast<uint32_t>(dh * sizeof(float)),
                                static_cast<uint32_t>((Dkv - dh) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> none{false, 0, 0, 0.0f};

        LocalTensor<float> kRaw = kvInQ.AllocTensor<float>();
        DataCopyPad(kRaw, kWs[off], strip, none);
        kvInQ.EnQue(kRaw);
        LocalTensor<float> vRaw = kvInQ.AllocTensor<float>();
        DataCopyPad(vRaw, vWs[off], strip, none);
        kvInQ.EnQue(vRaw);

        kRaw = kvInQ.DeQue<float>();
        vRaw = kvInQ.DeQue<float>();
        LocalTensor<float> kt = keyT.Get<float>();
        LocalTensor<float> vv = valBuf.Get<float>();
        DataCopy(vv, vRaw, Up8(L * dh));  // keep V resident, free the queue slot
        Barrier<HardEvent::MTE2_S>();
        for (uint32_t d = 0; d < dh; ++d) {
            for (uint32_t j = 0; j < L; ++j) {
                kt.SetValue(d * L + j, kRaw.GetValue(j * dh + d));
            }
        }
        Barrier<HardEvent::S_V>();
        kvInQ.FreeTensor(kRaw);
        kvInQ.FreeTensor(vRaw);
    }

    __aicore__ inline void OneQuery(uint32_t b, uint32_t hq, uint32_t i)
    {
        uint64_t rowOff = (static_cast<uint64_t>(b) * L + i) * D + hq * dh;
        LocalTensor<float> q = qInQ.AllocTensor<float>();
        DataCopyPad(q, qWs[rowOff], {1, static_cast<uint32_t>(dh * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0.0f});
        qInQ.EnQue(q);
        q = qInQ.DeQue<float>();
        Barrier<HardEvent::MTE2_S>();

        LocalTensor<float> p = probBuf.Get<float>();
        LocalTensor<float> kt = keyT.Get<float>();
        LocalTensor<float> vv = valBuf.Get<float>();
        LocalTensor<float> sc = scratch.Get<float>();

        Duplicate(p, 0.0f, L);
        for (uint32_t d = 0; d < dh; ++d) {
            Axpy(p, kt[d * L], q.GetValue(d) * scale, L);
        }
        qInQ.FreeTensor(q);

        ReduceMax<float>(sc, p, sc[64], L, false);
        Barrier<HardEvent::V_S>();
        float rowMax = sc.GetValue(0);
        rowMax = rowMax < NEG_BIG ? 0.0f : rowMax;
        Barrier<HardEvent::S_V>();
        Adds(p, p, -rowMax, L);
        Exp(p, p, L);
        ReduceSum<float>(sc, p, sc[64], L);
        Barrier<HardEvent::V_S>();
        float denom = sc.GetValue(0);

        // unnormalised weighted sum of V rows, one multiply by 1/denom at the end
        LocalTensor<float> o = aOutQ.AllocTensor<float>();
        Duplicate(o, 0.0f, dh);
        for (uint32_t j = 0; j < L; ++j) {
            Axpy(o, vv[j * dh], p.GetValue(j), dh);
        }
        Muls(o, o, 1.0f / denom, dh);
        aOutQ.EnQue(o);
        o = aOutQ.DeQue<float>();
        DataCopyPad(aWs[rowOff], o, {1, static_cast<uint32_t>(dh * sizeof(float)), 0, 0, 0});
        aOutQ.FreeTensor(o);
    }

    TQue<QuePosition::VECIN, 2> kvInQ, qInQ;
    TQue<QuePosition::VECOUT, 2> aOutQ;
    TBuf<TPosition::VECCALC> keyT, valBuf, probBuf, scratch;
    uint32_t B, L, D, Hq, Hkv, dh, Dkv, groupSize, cores;
    float scale;
};

extern "C" __global__ __aicore__ void shared_kv_attention(GM_ADDR x, GM_ADDR q_weight, GM_ADDR q_bias,
                                                          GM_ADDR k_weight, GM_ADDR k_bias, GM_ADDR v_weight,
                                                          GM_ADDR v_bias, GM_ADDR o_weight, GM_ADDR o_bias,
                                                          GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(t, tiling);

    SharedKvAttentionKernel op;
    DenseMM mmQ, mmK, mmV, mmO;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mmQ, &t.mmQ, mmK, &t.mmKV, mmV, &t.mmKV, mmO, &t.mmOut);
    op.Setup(GetUserWorkspace(workspace), t);

    GlobalTensor<float> xG, wq, bq, wk, bk, wv, bv, wo, bo, yG;
    xG.SetGlobalBuffer((__gm__ float *)x);
    wq.SetGlobalBuffer((__gm__ float *)q_weight);
    bq.SetGlobalBuffer((__gm__ float *)q_bias);
    wk.SetGlobalBuffer((__gm__ float *)k_weight);
    bk.SetGlobalBuffer((__gm__ float *)k_bias);
    wv.SetGlobalBuffer((__gm__ float *)v_weight);
    bv.SetGlobalBuffer((__gm__ float *)v_bias);
    wo.SetGlobalBuffer((__gm__ float *)o_weight);
    bo.SetGlobalBuffer((__gm__ float *)o_bias);
    yG.SetGlobalBuffer((__gm__ float *)y);

    DenseLayer(mmQ, t.mmQ, xG, wq, bq, op.qWs, t.aivNum);
    DenseLayer(mmK, t.mmKV, xG, wk, bk, op.kWs, t.aivNum);
    DenseLayer(mmV, t.mmKV, xG, wv, bv, op.vWs, t.aivNum);
    SyncAll();

    op.HeadAttention();
    SyncAll();

    DenseLayer(mmO, t.mmOut, op.aWs, wo, bo, yG, t.aivNum);
}
