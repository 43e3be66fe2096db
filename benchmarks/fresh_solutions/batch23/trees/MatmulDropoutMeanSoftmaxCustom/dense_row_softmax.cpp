/**
 * dense_row_softmax.cpp
 *
 * y = softmax(x * W^T + b, axis = 1)
 *
 * The affine part runs on the cube unit through the high level Matmul API;
 * each core owns a contiguous band of rows, so once its Matmul has landed in
 * GM the same core can normalise those rows with vector instructions without
 * any cross-core synchronisation. Dropout is treated as identity (inference).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct DenseRowSoftmaxTiling {
    uint32_t m;            // rows of x
    uint32_t n;            // output features
    uint32_t k;            // input features
    uint32_t rowsPerCore;  // band height handled by one core
    uint32_t alignedN;     // n rounded up to 8 floats (32 bytes)
    uint32_t reserved;
    TCubeTiling cube;      // filled by MultiCoreMatmulTiling on the host
};

template <typename T>
__aicore__ inline void LoadTiling(T *dst, GM_ADDR src)
{
    auto *d = reinterpret_cast<uint32_t *>(dst);
    auto *s = reinterpret_cast<__gm__ uint32_t *>(src);
    for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

using MmA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MmB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;  // weight is (n, k)
using MmC = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MmBias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

class DenseRowSoftmax {
public:
    __aicore__ inline DenseRowSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const DenseRowSoftmaxTiling &t, TPipe *pipe)
    {
        tiling_ = t;
        pipe_ = pipe;
        rowBegin_ = GetBlockIdx() * t.rowsPerCore;
        rowCount_ = 0;
        if (rowBegin_ < t.m) {
            rowCount_ = (t.m - rowBegin_ < t.rowsPerCore) ? (t.m - rowBegin_) : t.rowsPerCore;
        }
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), static_cast<uint64_t>(t.m) * t.k);
        wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w), static_cast<uint64_t>(t.n) * t.k);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), t.n);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), static_cast<uint64_t>(t.m) * t.n);

        pipe_->InitBuffer(rowIn_, 2, t.alignedN * sizeof(float));
        pipe_->InitBuffer(rowOut_, 2, t.alignedN * sizeof(float));
        pipe_->InitBuffer(reduceBuf_, t.alignedN * sizeof(float));
        pipe_->InitBuffer(scalarBuf_, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowCount_ == 0) {
            return;
        }
        RunGemm();
        for (uint32_t r = 0; r < rowCount_; ++r) {
            uint64_t off = static_cast<uint64_t>(rowBegin_ + r) * tiling_.n;
            CopyRowIn(off);
            NormaliseRow();
            CopyRowOut(off);
        }
    }

    matmul::Matmul<MmA, MmB, MmC, MmBias> mm;

private:
    __aicore__ inline void RunGemm()
    {
        uint64_t aOff = static_cast<uint64_t>(rowBegin_) * tiling_.k;
        uint64_t cOff = static_cast<uint64_t>(rowBegin_) * tiling_.n;
        mm.SetTensorA(xGm_[aOff]);
        mm.SetTensorB(wGm_, true);
        mm.SetBias(bGm_);
        mm.SetTail(rowCount_, tiling_.n, tiling_.k);
        mm.IterateAll(yGm_[cOff]);
        mm.End();
        // results are read back from GM by the vector side below
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void CopyRowIn(uint64_t off)
    {
        LocalTensor<float> row = rowIn_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(tiling_.n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(row, yGm_[off], cp, pad);
        rowIn_.EnQue(row);
    }

    __aicore__ inline void NormaliseRow()
    {
        LocalTensor<float> row = rowIn_.DeQue<float>();
        LocalTensor<float> res = rowOut_.AllocTensor<float>();
        LocalTensor<float> work = reduceBuf_.Get<float>();
        LocalTensor<float> s = scalarBuf_.Get<float>();
        const int32_t n = static_cast<int32_t>(tiling_.n);

        // subtract the row max for numerical safety
        ReduceMax<float>(s, row, work, n, false);
        WaitVectorForScalar();
        float rowMax = s.GetValue(0);
        Adds(res, row, -rowMax, n);
        Exp(res, res, n);

        ReduceSum<float>(s, res, work, n);
        WaitVectorForScalar();
        float inv = 1.0f / s.GetValue(0);
        Muls(res, res, inv, n);

        rowOut_.EnQue(res);
        rowIn_.FreeTensor(row);
    }

    __aicore__ inline void CopyRowOut(uint64_t off)
    {
        LocalTensor<float> res = rowOut_.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(tiling_.n * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[off], res, cp);
        rowOut_.FreeTensor(res);
    }

    __aicore__ inline void WaitVectorForScalar()
    {
        event_t ev = static_cast<event_t>(pipe_->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    TPipe *pipe_ = nullptr;
    DenseRowSoftmaxTiling tiling_;
    uint32_t rowBegin_ = 0;
    uint32_t rowCount_ = 0;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;
    TQue<QuePosition::VECIN, 2> rowIn_;
    TQue<QuePosition::VECOUT, 2> rowOut_;
    TBuf<TPosition::VECCALC> reduceBuf_;
    TBuf<TPosition::VECCALC> scalarBuf_;
};

extern "C" __global__ __aicore__ void dense_row_softmax(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    DenseRowSoftmaxTiling t;
    LoadTiling(&t, tiling);

    TPipe pipe;
    DenseRowSoftmax op;
    op.Init(x, w, bias, y, t, &pipe);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &t.cube);
    op.Process();
}
