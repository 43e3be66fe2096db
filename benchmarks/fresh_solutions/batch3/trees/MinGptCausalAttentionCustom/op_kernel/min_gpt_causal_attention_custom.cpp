#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr uint32_t COPY_ROWS = 64;   // rows per strided head-merge copy
constexpr float NEG_BIG = -3.0e38f;

using GmA = MatmulType<TPosition::GM, CubeFormat::ND, float, false>;
using GmBT = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using GmB = MatmulType<TPosition::GM, CubeFormat::ND, float, false>;
using GmC = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using GmBias = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class KernelMinGptAttention {
public:
    __aicore__ inline KernelMinGptAttention() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wa, GM_ADDR ba, GM_ADDR wp, GM_ADDR bp, GM_ADDR y,
                                GM_ADDR usrWs, const MinGptCausalAttentionCustomTilingData& td)
    {
        B = td.batch; T = td.seqLen; C = td.embd; nh = td.nHead; hd = td.headDim;
        coreNum = td.usedCoreNum;
        projRows = td.projRowsPerCore;
        scale = td.scale;
        blk = GetBlockIdx();

        uint64_t btc = (uint64_t)B * T * C;
        xGm.SetGlobalBuffer((__gm__ float*)x, btc);
        waGm.SetGlobalBuffer((__gm__ float*)wa, (uint64_t)3 * C * C);
        baGm.SetGlobalBuffer((__gm__ float*)ba, 3 * C);
        wpGm.SetGlobalBuffer((__gm__ float*)wp, (uint64_t)C * C);
        bpGm.SetGlobalBuffer((__gm__ float*)bp, C);
        yGm.SetGlobalBuffer((__gm__ float*)y, btc);

        // workspace: q | k | v | merged | scores[core] | headOut[core]
        __gm__ float* ws = (__gm__ float*)usrWs;
        qkvGm.SetGlobalBuffer(ws, 3 * btc);
        mergedGm.SetGlobalBuffer(ws + 3 * btc, btc);
        scoreGm.SetGlobalBuffer(ws + 4 * btc + (uint64_t)blk * T * T, (uint64_t)T * T);
        headGm.SetGlobalBuffer(ws + 4 * btc + (uint64_t)coreNum * T * T + (uint64_t)blk * T * hd,
                               (uint64_t)T * hd);

        pipe.InitBuffer(rowIn, 2, T * sizeof(float));
        pipe.InitBuffer(rowOut, 2, T * sizeof(float));
        pipe.InitBuffer(idxBuf, T * sizeof(float));
        pipe.InitBuffer(maskBuf, T);   // 1 bit per element is enough, keep a byte each
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, T * sizeof(float));
        pipe.InitBuffer(copyBuf, COPY_ROWS * hd * sizeof(float));

        LocalTensor<float> idx = idxBuf.Get<float>();
        ArithProgression<float>(idx, 0.0f, 1.0f, T);
    }

    __aicore__ inline void Process()
    {
        QkvProjection();
        SyncAll();
        Attention();
        SyncAll();
        OutProjection();
    }

    TPipe pipe;
    Matmul<GmA, GmBT, GmC, GmBias> mmQkv;
    Matmul<GmA, GmBT, GmC, GmBias> mmScore;
    Matmul<GmA, GmB, GmC, GmBias> mmPv;
    Matmul<GmA, GmBT, GmC, GmBias> mmProj;

private:
    // q/k/v for one (batch, head) written directly in (B, nh, T, hd) layout
    __aicore__ inline void QkvProjection()
    {
        uint32_t tasks = B * 3 * nh;
        uint64_t btc = (uint64_t)B * T * C;
        for (uint32_t t = blk; t < tasks; t += coreNum) {
            uint32_t b = t / (3 * nh);
            uint32_t rem = t % (3 * nh);
            uint32_t which = rem / nh;
            uint32_t h = rem % nh;
            uint32_t wRow = which * C + h * hd;
            mmQkv.SetTensorA(xGm[(uint64_t)b * T * C]);
            mmQkv.SetTensorB(waGm[(uint64_t)wRow * C], true);
            mmQkv.SetBias(baGm[wRow]);
            mmQkv.IterateAll(qkvGm[which * btc + ((uint64_t)b * nh + h) * T * hd]);
            mmQkv.End();
        }
    }

    __aicore__ inline void Attention()
    {
        uint64_t btc = (uint64_t)B * T * C;
        for (uint32_t t = blk; t < B * nh; t += coreNum) {
            uint32_t b = t / nh;
            uint32_t h = t % nh;
            uint64_t headOff = (uint64_t)t * T * hd;

            mmScore.SetTensorA(qkvGm[headOff]);
            mmScore.SetTensorB(qkvGm[btc + headOff], true);
            mmScore.IterateAll(scoreGm);
            mmScore.End();
            PipeBarrier<PIPE_ALL>();

            for (uint32_t r = 0; r < T; ++r) {
                SoftmaxRow(r);
            }
            PipeBarrier<PIPE_ALL>();

            mmPv.SetTensorA(scoreGm);
            mmPv.SetTensorB(qkvGm[2 * btc + headOff]);
            mmPv.IterateAll(headGm);
            mmPv.End();
            PipeBarrier<PIPE_ALL>();

            MergeHead(b, h);
        }
    }

    __aicore__ inline float ToScalar(const LocalTensor<float>& red)
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return red.GetValue(0);
    }

    // scale, causal mask (col > row -> -inf), softmax; in place on scoreGm
    __aicore__ inline void SoftmaxRow(uint32_t r)
    {
        LocalTensor<float> src = rowIn.AllocTensor<float>();
        DataCopy(src, scoreGm[(uint64_t)r * T], T);
        rowIn.EnQue(src);
        src = rowIn.DeQue<float>();

        LocalTensor<float> dst = rowOut.AllocTensor<float>();
        LocalTensor<float> idx = idxBuf.Get<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();

        Muls(src, src, scale, T);
        CompareScalar(mask, idx, static_cast<float>(r), CMPMODE::LE, T);
        Select(dst, mask, src, NEG_BIG, SELMODE::VSEL_TENSOR_SCALAR_MODE, T);

        ReduceMax<float>(red, dst, work, T, false);
        float mx = ToScalar(red);
        Adds(dst, dst, -mx, T);
        Exp(dst, dst, T);
        ReduceSum<float>(red, dst, work, T);
        float sum = ToScalar(red);
        Muls(dst, dst, 1.0f / sum, T);

        rowOut.EnQue(dst);
        rowIn.FreeTensor(src);
        dst = rowOut.DeQue<float>();
        DataCopy(scoreGm[(uint64_t)r * T], dst, T);
        rowOut.FreeTensor(dst);
    }

    // headGm (T, hd) -> mergedGm[b, :, h*hd : (h+1)*hd]
    __aicore__ inline void MergeHead(uint32_t b, uint32_t h)
    {
        LocalTensor<float> buf = copyBuf.Get<float>();
        for (uint32_t r0 = 0; r0 < T; r0 += COPY_ROWS) {
            uint32_t n = (r0 + COPY_ROWS > T) ? (T - r0) : COPY_ROWS;
            DataCopy(buf, headGm[(uint64_t)r0 * hd], n * hd);
            event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_MTE3));
            SetFlag<HardEvent::MTE2_MTE3>(e1);
            WaitFlag<HardEvent::MTE2_MTE3>(e1);
            DataCopyParams p;
            p.blockCount = n;
            p.blockLen = hd * sizeof(float) / 32;
            p.srcStride = 0;
            p.dstStride = (C - hd) * sizeof(float) / 32;
            DataCopy(mergedGm[((uint64_t)b * T + r0) * C + h * hd], buf, p);
            event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_MTE2));
            SetFlag<HardEvent::MTE3_MTE2>(e2);
            WaitFlag<HardEvent::MTE3_MTE2>(e2);
        }
    }

    __aicore__ inline void OutProjection()
    {
        uint32_t rows = B * T;
        uint32_t r0 = blk * projRows;
        if (r0 >= rows) return;
        uint32_t cnt = (r0 + projRows > rows) ? (rows - r0) : projRows;
        mmProj.SetTensorA(mergedGm[(uint64_t)r0 * C]);
        mmProj.SetTensorB(wpGm, true);
        mmProj.SetBias(bpGm);
        mmProj.SetTail(cnt, C, C);
        mmProj.IterateAll(yGm[(uint64_t)r0 * C]);
        mmProj.End();
    }

    TQue<QuePosition::VECIN, 2> rowIn;
    TQue<QuePosition::VECOUT, 2> rowOut;
    TBuf<TPosition::VECCALC> idxBuf, maskBuf, redBuf, workBuf, copyBuf;
    GlobalTensor<float> xGm, waGm, baGm, wpGm, bpGm, yGm;
    GlobalTensor<float> qkvGm, mergedGm, scoreGm, headGm;
    uint32_t B, T, C, nh, hd, coreNum, projRows, blk;
    float scale;
};

extern "C" __global__ __aicore__ void min_gpt_causal_attention_custom(
    GM_ADDR x, GM_ADDR attn_weight, GM_ADDR attn_bias, GM_ADDR proj_weight, GM_ADDR proj_bias,
    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    KernelMinGptAttention op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(),
                      op.mmQkv, &td.qkvTiling, op.mmScore, &td.scoreTiling,
                      op.mmPv, &td.pvTiling, op.mmProj, &td.projTiling);
    op.Init(x, attn_weight, attn_bias, proj_weight, proj_bias, y, usrWs, td);
    op.Process();
}
