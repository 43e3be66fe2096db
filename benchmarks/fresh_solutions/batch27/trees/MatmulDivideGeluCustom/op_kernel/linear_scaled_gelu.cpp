/**
 * @file linear_scaled_gelu.cpp
 * @brief Kernel of LinearScaledGelu: y = gelu((x @ weight^T + bias) / divisor), fp32.
 *
 * 1. Cube: each AIV block drives the Matmul API for its [singleCoreM, singleCoreN] output
 *    tile (weight consumed transposed in place, bias added in L0C) and writes it to y.
 * 2. Vector: the same block streams its tile back through UB and applies, in place,
 *        z = v / divisor
 *        gelu(z) = 0.5 * z * (1 + erf(z / sqrt(2)))
 *    using |z|: gelu(z) = 0.5 * (z + |z| * erf(|z| / sqrt(2))), and erf(u), u >= 0, from
 *    Abramowitz-Stegun 7.1.26 (|error| < 1.5e-7):
 *        t = 1 / (1 + p u),  erf(u) = 1 - t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) exp(-u^2)
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
constexpr int32_t DEPTH = 2;
constexpr uint32_t BLK = 8;
constexpr float INV_SQRT2 = 0.70710678118654752f;
constexpr float ERF_P = 0.3275911f;
constexpr float ERF_A1 = 0.254829592f;
constexpr float ERF_A2 = -0.284496736f;
constexpr float ERF_A3 = 1.421413741f;
constexpr float ERF_A4 = -1.453152027f;
constexpr float ERF_A5 = 1.061405429f;
}

class LinearScaledGeluKernel {
public:
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline LinearScaledGeluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                const LinearScaledGeluTilingData& td, TPipe* pipe)
    {
        tiling_ = td.cubeTiling;
        hasBias_ = td.hasBias != 0;
        invDivisor_ = td.invDivisor;
        tileLen_ = td.epiTileLen;

        xGm_.SetGlobalBuffer((__gm__ float*)x);
        wGm_.SetGlobalBuffer((__gm__ float*)weight);
        if (hasBias_) {
            bGm_.SetGlobalBuffer((__gm__ float*)bias);
        }
        yGm_.SetGlobalBuffer((__gm__ float*)y);

        pipe->InitBuffer(inQue_, DEPTH, tileLen_ * sizeof(float));
        pipe->InitBuffer(outQue_, DEPTH, tileLen_ * sizeof(float));
        pipe->InitBuffer(absBuf_, tileLen_ * sizeof(float));
        pipe->InitBuffer(uBuf_, tileLen_ * sizeof(float));
        pipe->InitBuffer(tBuf_, tileLen_ * sizeof(float));
        pipe->InitBuffer(pBuf_, tileLen_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const int32_t blockIdx = static_cast<int32_t>(GetBlockIdx());
        if (blockIdx >= tiling_.usedCoreNum) {
            return;
        }
        const int32_t mBlocks = (tiling_.M + tiling_.singleCoreM - 1) / tiling_.singleCoreM;
        const int32_t mStart = (blockIdx % mBlocks) * tiling_.singleCoreM;
        const int32_t nStart = (blockIdx / mBlocks) * tiling_.singleCoreN;
        if (mStart >= tiling_.M || nStart >= tiling_.N) {
            return;
        }
        rows_ = (tiling_.M - mStart < tiling_.singleCoreM) ? (tiling_.M - mStart) : tiling_.singleCoreM;
        cols_ = (tiling_.N - nStart < tiling_.singleCoreN) ? (tiling_.N - nStart) : tiling_.singleCoreN;
        tileBase_ = static_cast<uint64_t>(mStart) * tiling_.N + nStart;

        // ---- GEMM on the cube: x[mStart:, :] @ weight[nStart:, :]^T (+ bias[nStart:]) ----
        mm.SetTensorA(xGm_[static_cast<uint64_t>(mStart) * tiling_.Ka]);
        mm.SetTensorB(wGm_[static_cast<uint64_t>(nStart) * tiling_.Kb], true);
        if (hasBias_) {
            mm.SetBias(bGm_[nStart]);
        }
        mm.SetTail(rows_, cols_, tiling_.Ka);
        mm.IterateAll(yGm_[tileBase_]);
        mm.End();
        PipeBarrier<PIPE_ALL>();

        // ---- epilogue on the vector unit, in place on this core's tile ----
        Epilogue();
    }

    matmul::Matmul<AType, BType, CType, BiasType> mm;

private:
    __aicore__ inline void Epilogue()
    {
        const uint32_t colTile = (cols_ < static_cast<int32_t>(tileLen_)) ?
            (static_cast<uint32_t>(cols_) + BLK - 1) / BLK * BLK : tileLen_;
        const uint32_t rowsPerTile = tileLen_ / colTile;
        const uint32_t n = static_cast<uint32_t>(tiling_.N);
        for (uint32_t r0 = 0; r0 < static_cast<uint32_t>(rows_); r0 += rowsPerTile) {
            const uint32_t rc = (rows_ - r0 < rowsPerTile) ? (rows_ - r0) : rowsPerTile;
            for (uint32_t c0 = 0; c0 < static_cast<uint32_t>(cols_); c0 += colTile) {
                const uint32_t cc = (cols_ - c0 < colTile) ? (cols_ - c0) : colTile;
                const uint64_t off = tileBase_ + static_cast<uint64_t>(r0) * n + c0;
                const uint32_t gapBlocks = (colTile - (cc + BLK - 1) / BLK * BLK) / BLK;
                CopyIn(off, rc, cc, n, gapBlocks);
                Compute(rc * colTile);
                CopyOut(off, rc, cc, n, gapBlocks);
            }
        }
    }

    __aicore__ inline void CopyIn(uint64_t off, uint32_t rc, uint32_t cc, uint32_t n, uint32_t gapBlocks)
    {
        LocalTensor<float> in = inQue_.AllocTensor<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(rc), cc * static_cast<uint32_t>(sizeof(float)),
                             (n - cc) * static_cast<uint32_t>(sizeof(float)), gapBlocks, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(in, yGm_[off], cp, pad);
        inQue_.EnQue(in);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        LocalTensor<float> z = inQue_.DeQue<float>();
        LocalTensor<float> out = outQue_.AllocTensor<float>();
        LocalTensor<float> a = absBuf_.Get<float>();
        LocalTensor<float> u = uBuf_.Get<float>();
        LocalTensor<float> t = tBuf_.Get<float>();
        LocalTensor<float> p = pBuf_.Get<float>();

        Muls(z, z, invDivisor_, cnt);            // z = v / divisor
        Abs(a, z, cnt);                          // a = |z|
        Muls(u, a, INV_SQRT2, cnt);              // u = |z| / sqrt(2)
        // t = 1 / (1 + p*u)
        Muls(t, u, ERF_P, cnt);
        Adds(t, t, 1.0f, cnt);
        Duplicate(p, 1.0f, cnt);
        Div(t, p, t, cnt);
        // polynomial in t (Horner)
        Muls(p, t, ERF_A5, cnt);
        Adds(p, p, ERF_A4, cnt);
        Mul(p, p, t, cnt);
        Adds(p, p, ERF_A3, cnt);
        Mul(p, p, t, cnt);
        Adds(p, p, ERF_A2, cnt);
        Mul(p, p, t, cnt);
        Adds(p, p, ERF_A1, cnt);
        Mul(p, p, t, cnt);
        // exp(-u^2)
        Mul(u, u, u, cnt);
        Muls(u, u, -1.0f, cnt);
        Exp(u, u, cnt);
        // erf(u) = 1 - poly * exp(-u^2)
        Mul(p, p, u, cnt);
        Muls(p, p, -1.0f, cnt);
        Adds(p, p, 1.0f, cnt);
        // gelu = 0.5 * (z + |z| * erf(|z|/sqrt2))
        Mul(p, p, a, cnt);
        Add(p, p, z, cnt);
        Muls(out, p, 0.5f, cnt);

        outQue_.EnQue(out);
        inQue_.FreeTensor(z);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t rc, uint32_t cc, uint32_t n, uint32_t gapBlocks)
    {
        LocalTensor<float> out = outQue_.DeQue<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(rc), cc * static_cast<uint32_t>(sizeof(float)), gapBlocks,
                             (n - cc) * static_cast<uint32_t>(sizeof(float)), 0};
        DataCopyPad(yGm_[off], out, cp);
        outQue_.FreeTensor(out);
    }

private:
    TCubeTiling tiling_;
    TQue<QuePosition::VECIN, DEPTH> inQue_;
    TQue<QuePosition::VECOUT, DEPTH> outQue_;
    TBuf<TPosition::VECCALC> absBuf_, uBuf_, tBuf_, pBuf_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;
    uint64_t tileBase_ = 0;
    int32_t rows_ = 0;
    int32_t cols_ = 0;
    uint32_t tileLen_ = 0;
    float invDivisor_ = 1.0f;
    bool hasBias_ = false;
};

extern "C" __global__ __aicore__ void linear_scaled_gelu(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (workspace == nullptr) {
        return;
    }
    SetSysWorkspace(workspace);
    TPipe pipe;
    LinearScaledGeluKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTiling);
    op.Init(x, weight, bias, y, tilingData, &pipe);
    op.Process();
}
