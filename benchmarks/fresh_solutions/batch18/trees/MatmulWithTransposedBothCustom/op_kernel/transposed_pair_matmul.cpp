// TransposedPairMatmul: C = A^T * B^T on the cube unit.
// A is [K, M] and B is [N, K] in GM; both are handed to the Matmul API with the
// transpose flag so no explicit transpose pass is needed.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
template <typename T>
struct PairMatmulTypes {
    using A = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using B = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using C = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using Bias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
};

// Per-core window into the global problem.
struct CoreWindow {
    uint64_t aOffset;
    uint64_t bOffset;
    uint64_t cOffset;
    int32_t tailM;
    int32_t tailN;
};

__aicore__ inline CoreWindow LocateCore(const TCubeTiling &t, uint32_t blockIdx)
{
    int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    int32_t mIdx = static_cast<int32_t>(blockIdx) % mBlocks;
    int32_t nIdx = static_cast<int32_t>(blockIdx) / mBlocks;
    int32_t mStart = mIdx * t.singleCoreM;
    int32_t nStart = nIdx * t.singleCoreN;

    CoreWindow w;
    // A^T rows are A columns: advancing along M moves by one element in A's row.
    w.aOffset = static_cast<uint64_t>(mStart);
    // B^T columns are B rows: advancing along N moves by K elements.
    w.bOffset = static_cast<uint64_t>(nStart) * t.Kb;
    w.cOffset = static_cast<uint64_t>(mStart) * t.N + nStart;
    w.tailM = (t.M - mStart) < t.singleCoreM ? (t.M - mStart) : t.singleCoreM;
    w.tailN = (t.N - nStart) < t.singleCoreN ? (t.N - nStart) : t.singleCoreN;
    return w;
}
} // namespace

template <typename T>
class TransposedPairMatmulOp {
public:
    __aicore__ inline TransposedPairMatmulOp() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                const TCubeTiling &tiling, uint32_t usedCores)
    {
        cube_ = tiling;
        skip_ = GetBlockIdx() >= usedCores;
        if (skip_) {
            return;
        }
        win_ = LocateCore(cube_, GetBlockIdx());
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a));
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b));
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c));
        REGIST_MATMUL_OBJ(&pipe_, GetSysWorkSpacePtr(), mm_, &cube_);
    }

    __aicore__ inline void Process()
    {
        if (skip_) {
            return;
        }
        mm_.SetTensorA(aGm_[win_.aOffset], true);
        mm_.SetTensorB(bGm_[win_.bOffset], true);
        mm_.SetTail(win_.tailM, win_.tailN);
        // Walk the base blocks explicitly; the API places each block in C
        // according to its iteration order.
        while (mm_.Iterate()) {
            mm_.GetTensorC(cGm_[win_.cOffset], 0, true);
        }
        mm_.End();
    }

private:
    using Ty = PairMatmulTypes<T>;
    TPipe pipe_;
    matmul::Matmul<typename Ty::A, typename Ty::B, typename Ty::C, typename Ty::Bias> mm_;
    GlobalTensor<T> aGm_, bGm_, cGm_;
    TCubeTiling cube_;
    CoreWindow win_;
    bool skip_ = false;
};

extern "C" __global__ __aicore__ void transposed_pair_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (workspace == nullptr) {
        return;
    }
    SetSysWorkspace(workspace); // matmul client/server message area
    if (TILING_KEY_IS(0)) {
        TransposedPairMatmulOp<float> op;
        op.Init(a, b, c, workspace, td.cube, td.usedCores);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        TransposedPairMatmulOp<half> op;
        op.Init(a, b, c, workspace, td.cube, td.usedCores);
        op.Process();
    }
}
