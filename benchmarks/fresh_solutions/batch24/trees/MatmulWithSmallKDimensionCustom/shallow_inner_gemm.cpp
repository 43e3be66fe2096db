/**
 * shallow_inner_gemm: C[M, N] = A[M, K] * B[K, N] for a very short K.
 *
 * With K this small every output tile needs just one pass over K, so the
 * problem is completely bound by writing C.  The output is cut into
 * singleCoreM x singleCoreN blocks, one block per AI core, and each block is
 * produced by the high-level Matmul object (cube unit, float in / float out).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct ShallowInnerGemmTiling {
    uint32_t M;
    uint32_t N;
    uint32_t K;
    TCubeTiling cube;     // produced on the host by matmul_tiling::MultiCoreMatmulTiling
};

__aicore__ inline void LoadTiling(ShallowInnerGemmTiling *dst, GM_ADDR src)
{
    auto *d = reinterpret_cast<uint32_t *>(dst);
    auto *s = reinterpret_cast<__gm__ uint32_t *>(src);
    for (uint32_t i = 0; i < sizeof(ShallowInnerGemmTiling) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}

template <typename T>
class ShallowInnerGemm {
public:
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

    matmul::Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline ShallowInnerGemm() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const ShallowInnerGemmTiling &tiling)
    {
        tiling_ = tiling;
        const TCubeTiling &ct = tiling_.cube;
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), (uint64_t)ct.M * ct.Ka);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), (uint64_t)ct.Kb * ct.N);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), (uint64_t)ct.M * ct.N);

        // locate this core's block in the M x N grid
        uint32_t blocksM = Ceil(ct.M, ct.singleCoreM);
        uint32_t blk = GetBlockIdx();
        uint32_t mIdx = blk % blocksM;
        uint32_t nIdx = blk / blocksM;
        offM_ = mIdx * ct.singleCoreM;
        offN_ = nIdx * ct.singleCoreN;
        tailM_ = (ct.M - offM_ < (uint32_t)ct.singleCoreM) ? ct.M - offM_ : ct.singleCoreM;
        tailN_ = (ct.N - offN_ < (uint32_t)ct.singleCoreN) ? ct.N - offN_ : ct.singleCoreN;
        valid_ = offM_ < (uint32_t)ct.M && offN_ < (uint32_t)ct.N;
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        if (!valid_) {
            return;
        }
        const TCubeTiling &ct = tiling_.cube;
        // A rows start at offM_, B columns at offN_; K is consumed in full.
        mm.SetTensorA(aGm_[(uint64_t)offM_ * ct.Ka]);
        mm.SetTensorB(bGm_[offN_]);
        mm.SetTail(tailM_, tailN_, ct.Ka);
        mm.IterateAll(cGm_[(uint64_t)offM_ * ct.N + offN_]);
        mm.End();
    }

private:
    __aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

    GlobalTensor<T> aGm_, bGm_;
    GlobalTensor<float> cGm_;
    ShallowInnerGemmTiling tiling_;
    uint32_t offM_ = 0, offN_ = 0, tailM_ = 0, tailN_ = 0;
    bool valid_ = false;
};

extern "C" __global__ __aicore__ void shallow_inner_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    if (g_coreType == AIV) {
        return;   // pure cube job, vector cores have nothing to do
    }
    ShallowInnerGemmTiling t;
    LoadTiling(&t, tiling);

    TPipe pipe;
    ShallowInnerGemm<float> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &t.cube);
    op.Init(a, b, c, t);
    op.Process(&pipe);
}
