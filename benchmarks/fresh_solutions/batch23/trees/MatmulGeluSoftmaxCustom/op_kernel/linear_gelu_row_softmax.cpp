/*
 * LinearGeluRowSoftmax kernel
 *   y = softmax_row( gelu_erf( x @ W^T + b ) )
 *
 * Stage 1 (cube): every core multiplies its block of rows of x with the full weight and
 *                 writes the fp32 result into the user workspace.
 * Stage 2 (vector): for each of its rows, a three pass chunked softmax:
 *                 pass A: gelu in place in workspace, track running max
 *                 pass B: sum of exp(v - max)
 *                 pass C: exp(v - max) / sum, cast to the output dtype, store.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
constexpr float INV_SQRT2 = 0.70710678118654752f;
}

template <typename T>
class LinearGeluRowSoftmaxKernel {
public:
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, false>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

    matmul::Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline LinearGeluRowSoftmaxKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR usrWs,
                                const LinearGeluRowSoftmaxTilingData &td)
    {
        m_ = td.rows;
        n_ = td.outFeatures;
        k_ = td.inFeatures;
        chunk_ = td.chunkLen;
        rowBegin_ = GetBlockIdx() * td.rowsPerCore;
        myRows_ = 0;
        if (rowBegin_ < m_) {
            myRows_ = (m_ - rowBegin_) < td.rowsPerCore ? (m_ - rowBegin_) : td.rowsPerCore;
        }
        cubeTiling_ = &td.mmTiling;
        REGIST_MATMUL_OBJ(&pipe_, GetSysWorkSpacePtr(), mm, cubeTiling_);

        xGm_.SetGlobalBuffer((__gm__ T *)x + static_cast<uint64_t>(rowBegin_) * k_);
        wGm_.SetGlobalBuffer((__gm__ T *)w);
        bGm_.SetGlobalBuffer((__gm__ float *)b);
        yGm_.SetGlobalBuffer((__gm__ T *)y + static_cast<uint64_t>(rowBegin_) * n_);
        hGm_.SetGlobalBuffer((__gm__ float *)usrWs + static_cast<uint64_t>(rowBegin_) * n_);

        pipe_.InitBuffer(inQ_, 2, chunk_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 2, chunk_ * sizeof(float));
        pipe_.InitBuffer(workBuf_, chunk_ * sizeof(float));
        pipe_.InitBuffer(redBuf_, 64 * sizeof(float));
        pipe_.InitBuffer(erfTmp_, td.erfTmpBytes);
    }

    __aicore__ inline void Process()
    {
        if (myRows_ == 0) {
            return;
        }
        // ---- stage 1: GEMM into workspace
        mm.SetTensorA(xGm_);
        mm.SetTensorB(wGm_, true);
        mm.SetBias(bGm_);
        mm.SetTail(myRows_, n_, k_);
        mm.IterateAll(hGm_);
        mm.End();
        PipeBarrier<PIPE_ALL>();

        // ---- stage 2: row wise gelu + softmax
        for (uint32_t r = 0; r < myRows_; ++r) {
            ProcessRow(r);
        }
    }

private:
    __aicore__ inline uint32_t Cur(uint32_t c) const
    {
        uint32_t left = n_ - c;
        return left < chunk_ ? left : chunk_;
    }

    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = inQ_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, hGm_[off], cp, pad);
        inQ_.EnQue(t);
    }

    __aicore__ inline float ChunkReduce(LocalTensor<float> &src, uint32_t len, bool isMax)
    {
        LocalTensor<float> red = redBuf_.Get<float>();
        LocalTensor<float> scratch = workBuf_.Get<float>();
        if (isMax) {
            ReduceMax<float>(red, src, scratch, static_cast<int32_t>(len), false);
        } else {
            ReduceSum<float>(red, src, scratch, static_cast<int32_t>(len));
        }
        event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return red.GetValue(0);
    }

    __aicore__ inline void ProcessRow(uint32_t r)
    {
        uint64_t rowOff = static_cast<uint64_t>(r) * n_;
        LocalTensor<uint8_t> tmp = erfTmp_.Get<uint8_t>();

        // pass A: gelu(v) = 0.5 * v * (1 + erf(v / sqrt(2))), written back, tracking max
        float rowMax = -3.402823466e+38f;
        for (uint32_t c = 0; c < n_; c += chunk_) {
            uint32_t len = Cur(c);
            Load(rowOff + c, len);
            LocalTensor<float> v = inQ_.DeQue<float>();
            LocalTensor<float> g = outQ_.AllocTensor<float>();
            Muls(g, v, INV_SQRT2, len);
            Erf<float, false>(g, g, tmp, len);
            Adds(g, g, 1.0f, len);
            Mul(g, g, v, len);
            Muls(g, g, 0.5f, len);
            inQ_.FreeTensor(v);
            float cmax = ChunkReduce(g, len, true);
            rowMax = cmax > rowMax ? cmax : rowMax;
            outQ_.EnQue(g);
            g = outQ_.DeQue<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(hGm_[rowOff + c], g, cp);
            outQ_.FreeTensor(g);
        }
        // the writes of pass A must land before pass B re-reads the same GM
        PipeBarrier<PIPE_ALL>();

        // pass B: denominator
        float denom = 0.0f;
        for (uint32_t c = 0; c < n_; c += chunk_) {
            uint32_t len = Cur(c);
            Load(rowOff + c, len);
            LocalTensor<float> v = inQ_.DeQue<float>();
            Adds(v, v, -rowMax, len);
            Exp(v, v, len);
            denom += ChunkReduce(v, len, false);
            inQ_.FreeTensor(v);
        }
        float inv = 1.0f / denom;

        // pass C: normalise and store
        for (uint32_t c = 0; c < n_; c += chunk_) {
            uint32_t len = Cur(c);
            Load(rowOff + c, len);
            LocalTensor<float> v = inQ_.DeQue<float>();
            LocalTensor<float> o = outQ_.AllocTensor<float>();
            Adds(v, v, -rowMax, len);
            Exp(v, v, len);
            if constexpr (std::is_same<T, float>::value) {
                Muls(o, v, inv, len);
            } else {
                Muls(v, v, inv, len);
                LocalTensor<T> oh = o.template ReinterpretCast<T>();
                Cast(oh, v, RoundMode::CAST_ROUND, len);
            }
            inQ_.FreeTensor(v);
            outQ_.EnQue(o);
            o = outQ_.DeQue<float>();
            LocalTensor<T> ot = o.template ReinterpretCast<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm_[rowOff + c], ot, cp);
            outQ_.FreeTensor(o);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> workBuf_;
    TBuf<TPosition::VECCALC> redBuf_;
    TBuf<TPosition::VECCALC> erfTmp_;

    GlobalTensor<T> xGm_;
    GlobalTensor<T> wGm_;
    GlobalTensor<float> bGm_;
    GlobalTensor<T> yGm_;
    GlobalTensor<float> hGm_;

    const TCubeTiling *cubeTiling_ = nullptr;
    uint32_t m_ = 0, n_ = 0, k_ = 0, chunk_ = 0;
    uint32_t rowBegin_ = 0, myRows_ = 0;
};

extern "C" __global__ __aicore__ void linear_gelu_row_softmax(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    if (usrWs == nullptr) {
        return;
    }
    LinearGeluRowSoftmaxKernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, usrWs, td);
    op.Process();
}
