#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// Causal "ReLU attention" for one (batch*head) slice:
//   S = (Q K^T) * scale ; S[i][j] = 0 for j > i ; P = relu(S) ; Y = P V
// (masked_fill(-inf) followed by relu is exactly zeroing the masked entries.)
//
// One task = (head, block of bm query rows). Causality means only keys [0, m0 + rows)
// matter, so both matmuls shrink with the block index.
// Stage 1: cube  S_blk = Q_blk * K^T        -> per-core GM scratch
// Stage 2: vector scale + relu + mask on the scratch, rows streamed through UB
// Stage 3: cube  Y_blk = P_blk * V           -> output
class ReluAttentionKernel {
public:
    using ATy = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BTransTy = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using BTy = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using CTy = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    Matmul<ATy, BTransTy, CTy> mmQK;
    Matmul<ATy, BTy, CTy> mmPV;

    __aicore__ inline ReluAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR y, GM_ADDR userWs,
                                const ReluSelfAttentionCustomTilingData &td, TPipe *pipe)
    {
        T = td.seqLen;
        hs = td.headDim;
        bm = td.blockM;
        qBlocks = td.qBlocks;
        vecRows = td.vecRows;
        stride = td.scoreStride;
        scale = td.scale;
        totalTasks = td.batchHeads * qBlocks;

        coreId = GetBlockIdx();
        coreNum = GetBlockNum() * GetTaskRation();

        qGm.SetGlobalBuffer((__gm__ float *)q);
        kGm.SetGlobalBuffer((__gm__ float *)k);
        vGm.SetGlobalBuffer((__gm__ float *)v);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        scoreGm.SetGlobalBuffer((__gm__ float *)userWs + (uint64_t)coreId * bm * stride, (uint64_t)bm * stride);

        pipe->InitBuffer(rowQue, 2, vecRows * stride * sizeof(float));
        pipe->InitBuffer(colIdxBuf, stride * sizeof(float));
        pipe->InitBuffer(maskBuf, AlignMask(bm) / 8);

        // column index 0..stride-1 as float, used to build the causal mask by comparison
        LocalTensor<float> colIdx = colIdxBuf.Get<float>();
        ArithProgression<float>(colIdx, 0.0f, 1.0f, stride);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = coreId; task < totalTasks; task += coreNum) {
            uint32_t head = task / qBlocks;
            uint32_t m0 = (task % qBlocks) * bm;
            uint32_t rows = (m0 + bm <= T) ? bm : (T - m0);
            uint32_t kvLen = m0 + rows;
            uint64_t headOff = (uint64_t)head * T * hs;

            // ---- stage 1: scores
            mmQK.SetTensorA(qGm[headOff + (uint64_t)m0 * hs], false);
            mmQK.SetTensorB(kGm[headOff], true);
            mmQK.SetTail(rows, kvLen, hs);
            mmQK.IterateAll(scoreGm);
            mmQK.End();

            // ---- stage 2: scale, relu, causal zeroing
            ScoreEpilogue(m0, rows, kvLen);
            PipeBarrier<PIPE_ALL>();   // scratch must be in GM before the cube reads it back

            // ---- stage 3: P * V
            mmPV.SetTensorA(scoreGm, false);
            mmPV.SetTensorB(vGm[headOff], false);
            mmPV.SetTail(rows, hs, kvLen);
            mmPV.IterateAll(yGm[headOff + (uint64_t)m0 * hs]);
            mmPV.End();
        }
    }

private:
    __aicore__ inline uint32_t AlignMask(uint32_t n) { return (n + 63) / 64 * 64; }

    __aicore__ inline void ScoreEpilogue(uint32_t m0, uint32_t rows, uint32_t kvLen)
    {
        uint32_t kvAligned = (kvLen + 7) / 8 * 8;
        uint32_t diagCnt = AlignMask(rows);    // compare width over the diagonal block
        LocalTensor<float> colIdx = colIdxBuf.Get<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();

        for (uint32_t r0 = 0; r0 < rows; r0 += vecRows) {
            uint32_t nr = (r0 + vecRows <= rows) ? vecRows : (rows - r0);

            LocalTensor<float> buf = rowQue.AllocTensor<float>();
            DataCopyExtParams inP{static_cast<uint16_t>(nr), kvLen * (uint32_t)sizeof(float),
                                  (stride - kvLen) * (uint32_t)sizeof(float),
                                  (stride - kvAligned) * (uint32_t)sizeof(float) / 32, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0};
            DataCopyPad(buf, scoreGm[(uint64_t)r0 * stride], inP, pad);
            rowQue.EnQue(buf);
            buf = rowQue.DeQue<float>();

            // scale then relu on the whole band at once (rows are stride apart, stride % 64 == 0)
            uint32_t bandElems = nr * stride;
            Muls(buf, buf, scale, bandElems);
            PipeBarrier<PIPE_V>();
            Relu(buf, buf, bandElems);
            PipeBarrier<PIPE_V>();

            // only the diagonal bm x bm block carries masked entries:
            // keep column j iff j <= query index (m0 + row)
            for (uint32_t r = 0; r < nr; ++r) {
                float qIdx = static_cast<float>(m0 + r0 + r);
                LocalTensor<float> diag = buf[r * stride + m0];
                CompareScalar(mask, colIdx[m0], qIdx, CMPMODE::LE, diagCnt);
                PipeBarrier<PIPE_V>();
                Select(diag, mask, diag, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, diagCnt);
                PipeBarrier<PIPE_V>();
            }

            DataCopyExtParams outP{static_cast<uint16_t>(nr), kvLen * (uint32_t)sizeof(float),
                                   (stride - kvAligned) * (uint32_t)sizeof(float) / 32,
                                   (stride - kvLen) * (uint32_t)sizeof(float), 0};
            rowQue.EnQue(buf);
            buf = rowQue.DeQue<float>();
            DataCopyPad(scoreGm[(uint64_t)r0 * stride], buf, outP);
            rowQue.FreeTensor(buf);
        }
    }

    GlobalTensor<float> qGm, kGm, vGm, yGm, scoreGm;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> rowQue;
    TBuf<TPosition::VECCALC> colIdxBuf, maskBuf;
    uint32_t T = 0, hs = 0, bm = 0, qBlocks = 0, vecRows = 0, stride = 0;
    uint32_t totalTasks = 0, coreId = 0, coreNum = 1;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void relu_self_attention_custom(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    TPipe pipe;
    ReluAttentionKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mmQK, &tilingData.qkTiling, op.mmPV, &tilingData.pvTiling);
    op.Init(q, k, v, y, userWs, tilingData, &pipe);
    op.Process();
}
