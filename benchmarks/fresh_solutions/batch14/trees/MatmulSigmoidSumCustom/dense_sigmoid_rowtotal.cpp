// dense_sigmoid_rowtotal.cpp
//
//   out[r] = sum_j sigmoid( (x @ W^T)[r, j] + b[j] )
//
// x: [rows, inF], W: [outF, inF] (nn.Linear layout), b: [outF], out: [rows, 1].
//
// The cube computes 64 x 128 result tiles; the vector side squashes each
// tile, folds its 128 columns into 64 per-row partial sums and atomically
// adds them into out (zeroed by the host). The [rows, outF] activation
// matrix is never written to GM.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

constexpr uint32_t TILE_M = 64;
constexpr uint32_t TILE_N = 128;
constexpr uint32_t HALF_N = TILE_N / 2;   // 64 floats = one 256B repeat

struct DenseSigmoidRowtotalTiling {
    uint32_t rows;
    uint32_t inF;
    uint32_t outF;
    uint32_t pad;
    TCubeTiling cube;
};

class DenseSigmoidRowtotal {
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    matmul::Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline DenseSigmoidRowtotal() {}

    __aicore__ inline bool Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR out, const DenseSigmoidRowtotalTiling &t)
    {
        tl = t;
        const TCubeTiling &c = tl.cube;
        uint32_t mParts = (c.M + c.singleCoreM - 1) / c.singleCoreM;
        uint32_t me = GetBlockIdx();
        mPart = me % mParts;
        nPart = me / mParts;
        if (mPart * c.singleCoreM >= static_cast<uint32_t>(c.M) || nPart * c.singleCoreN >= static_cast<uint32_t>(c.N)) {
            return false;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + static_cast<uint64_t>(mPart) * c.singleCoreM * c.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w + static_cast<uint64_t>(nPart) * c.singleCoreN * c.Kb);
        bGm.SetGlobalBuffer((__gm__ float *)b + nPart * c.singleCoreN);
        outGm.SetGlobalBuffer((__gm__ float *)out + mPart * c.singleCoreM);

        pipe.InitBuffer(tileQ, 1, TILE_M * TILE_N * sizeof(float));
        pipe.InitBuffer(halfBuf, TILE_M * HALF_N * sizeof(float));
        pipe.InitBuffer(sumQ, 1, TILE_M * sizeof(float));
        return true;
    }

    __aicore__ inline void Process()
    {
        const TCubeTiling &c = tl.cube;
        uint32_t myM = c.M - mPart * c.singleCoreM;
        uint32_t myN = c.N - nPart * c.singleCoreN;
        myM = myM < static_cast<uint32_t>(c.singleCoreM) ? myM : c.singleCoreM;
        myN = myN < static_cast<uint32_t>(c.singleCoreN) ? myN : c.singleCoreN;

        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(bGm);
        mm.SetTail(myM, myN);

        uint32_t mTiles = myM / TILE_M;
        uint32_t idx = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> tile = tileQ.AllocTensor<float>();
            mm.template GetTensorC<true>(tile, false, true);
            tileQ.EnQue(tile);
            Squash();
            Accumulate((idx % mTiles) * TILE_M);   // default iterate order walks M first
            ++idx;
        }
        mm.End();
    }

private:
    __aicore__ inline void Squash()
    {
        LocalTensor<float> tile = tileQ.DeQue<float>();
        LocalTensor<float> half = halfBuf.Get<float>();
        LocalTensor<float> sums = sumQ.AllocTensor<float>();

        Sigmoid(tile, tile, TILE_M * TILE_N);
        // left 64 columns + right 64 columns of every row -> [TILE_M, 64]
        BinaryRepeatParams rp;
        rp.dstBlkStride = 1;
        rp.src0BlkStride = 1;
        rp.src1BlkStride = 1;
        rp.dstRepStride = HALF_N * sizeof(float) / 32;
        rp.src0RepStride = TILE_N * sizeof(float) / 32;
        rp.src1RepStride = TILE_N * sizeof(float) / 32;
        Add(half, tile, tile[HALF_N], HALF_N, TILE_M, rp);
        // one 64-wide repeat per row -> one value per row
        WholeReduceSum<float>(sums, half, HALF_N, TILE_M, 1, 1, HALF_N * sizeof(float) / 32);

        sumQ.EnQue(sums);
        tileQ.FreeTensor(tile);
    }

    __aicore__ inline void Accumulate(uint32_t rowOff)
    {
        LocalTensor<float> sums = sumQ.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopy(outGm[rowOff], sums, TILE_M);
        SetAtomicNone();
        sumQ.FreeTensor(sums);
    }

    DenseSigmoidRowtotalTiling tl;
    uint32_t mPart = 0, nPart = 0;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> tileQ;
    TQue<QuePosition::VECOUT, 1> sumQ;
    TBuf<TPosition::VECCALC> halfBuf;
    GlobalTensor<float> xGm, wGm, bGm, outGm;
};

extern "C" __global__ __aicore__ void dense_sigmoid_rowtotal(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR out,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    DenseSigmoidRowtotalTiling t;
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto dst = reinterpret_cast<uint32_t *>(&t);
    for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }

    DenseSigmoidRowtotal op;
    if (!op.Init(x, w, b, out, t)) {
        return;
    }
    REGIST_MATMUL_OBJ(GetTPipePtr(), GetSysWorkSpacePtr(), op.mm, &t.cube);
    op.Process();
}
