#include "kernel_operator.h"

// Scaled dot-product attention for the cross-modal block: each AI core owns a
// set of (batch, head) pairs. K^T and V of one head fit in UB (196 x 32 floats
// each), so we stage them once per head and stream over the text queries.
//   scores = (q * scale) @ K^T      -> Axpy over the head dim, rows of K^T
//   p      = softmax(scores)
//   out    = p @ V                  -> Axpy over the keys, rows of V

class CrossModalAttentionKernel {
public:
    __aicore__ inline CrossModalAttentionKernel() {}

    __aicore__ inline void Init(GM_ADDR q, GM_ADDR kt, GM_ADDR v, GM_ADDR out,
                                uint32_t bh, uint32_t lq, uint32_t lk, uint32_t lkAlign,
                                uint32_t d, uint32_t perCore, float scale)
    {
        this->lq = lq;
        this->lk = lk;
        this->lkAlign = lkAlign;
        this->d = d;
        this->scale = scale;

        headStart = AscendC::GetBlockIdx() * perCore;
        headEnd = headStart + perCore;
        if (headEnd > bh) headEnd = bh;

        qGm.SetGlobalBuffer((__gm__ float*)q, bh * lq * d);
        ktGm.SetGlobalBuffer((__gm__ float*)kt, bh * d * lk);
        vGm.SetGlobalBuffer((__gm__ float*)v, bh * lk * d);
        oGm.SetGlobalBuffer((__gm__ float*)out, bh * lq * d);

        pipe.InitBuffer(qQue, 1, lq * d * sizeof(float));
        pipe.InitBuffer(kQue, 1, d * lkAlign * sizeof(float));
        pipe.InitBuffer(vQue, 1, lk * d * sizeof(float));
        pipe.InitBuffer(oQue, 1, lq * d * sizeof(float));
        pipe.InitBuffer(scoreBuf, lkAlign * sizeof(float));
        pipe.InitBuffer(workBuf, lkAlign * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t h = headStart; h < headEnd; ++h) {
            CopyIn(h);
            Compute();
            CopyOut(h);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t h)
    {
        AscendC::LocalTensor<float> qL = qQue.AllocTensor<float>();
        AscendC::LocalTensor<float> kL = kQue.AllocTensor<float>();
        AscendC::LocalTensor<float> vL = vQue.AllocTensor<float>();

        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyExtParams qp{1, lq * d * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(qL, qGm[(uint64_t)h * lq * d], qp, pad);
        // K^T rows have lk elements; land each one on a 32B aligned lkAlign stride
        AscendC::DataCopyExtParams kp{(uint16_t)d, lk * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(kL, ktGm[(uint64_t)h * d * lk], kp, pad);
        AscendC::DataCopyExtParams vp{1, lk * d * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(vL, vGm[(uint64_t)h * lk * d], vp, pad);

        qQue.EnQue(qL);
        kQue.EnQue(kL);
        vQue.EnQue(vL);
    }

    __aicore__ inline void SyncVtoS()
    {
        event_t e = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(e);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(e);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> qL = qQue.DeQue<float>();
        AscendC::LocalTensor<float> kL = kQue.DeQue<float>();
        AscendC::LocalTensor<float> vL = vQue.DeQue<float>();
        AscendC::LocalTensor<float> oL = oQue.AllocTensor<float>();
        AscendC::LocalTensor<float> s = scoreBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> red = redBuf.Get<float>();

        // query values are read as scalars below
        event_t e = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(e);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(e);

        for (uint32_t i = 0; i < lq; ++i) {
            // scores
            AscendC::Duplicate(s, 0.0f, lkAlign);
            for (uint32_t c = 0; c < d; ++c) {
                float qv = qL.GetValue(i * d + c) * scale;
                AscendC::Axpy(s, kL[c * lkAlign], qv, lkAlign);
            }

            // numerically stable softmax over the lk valid entries
            AscendC::ReduceMax(red, s, work, lk, false);
            SyncVtoS();
            float rowMax = red.GetValue(0);
            AscendC::Adds(s, s, -rowMax, lk);
            AscendC::Exp(s, s, lk);
            AscendC::ReduceSum(red, s, work, lk);
            SyncVtoS();
            float inv = 1.0f / red.GetValue(0);
            AscendC::Muls(s, s, inv, lk);
            SyncVtoS();

            // weighted sum of values
            AscendC::LocalTensor<float> orow = oL[i * d];
            AscendC::Duplicate(orow, 0.0f, d);
            for (uint32_t j = 0; j < lk; ++j) {
                AscendC::Axpy(orow, vL[j * d], s.GetValue(j), d);
            }
            // scores buffer is rewritten in the next iteration
            AscendC::PipeBarrier<PIPE_V>();
        }

        oQue.EnQue(oL);
        qQue.FreeTensor(qL);
        kQue.FreeTensor(kL);
        vQue.FreeTensor(vL);
    }

    __aicore__ inline void CopyOut(uint32_t h)
    {
        AscendC::LocalTensor<float> oL = oQue.DeQue<float>();
        AscendC::DataCopyExtParams op{1, lq * d * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(oGm[(uint64_t)h * lq * d], oL, op);
        oQue.FreeTensor(oL);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> qQue, kQue, vQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> oQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scoreBuf, workBuf, redBuf;
    AscendC::GlobalTensor<float> qGm, ktGm, vGm, oGm;
    uint32_t lq, lk, lkAlign, d;
    uint32_t headStart, headEnd;
    float scale;
};

extern "C" __global__ __aicore__ void cross_modal_attention_custom(GM_ADDR query, GM_ADDR key_t, GM_ADDR value,
                                                                   GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    CrossModalAttentionKernel op;
    op.Init(query, key_t, value, out, td.batchHeads, td.lenQ, td.lenK, td.lenKAlign, td.headDim,
            td.headsPerCore, td.scale);
    op.Process();
}
