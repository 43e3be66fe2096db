/*
 * C = A * B for a long reduction dimension.
 *
 * Phase 1: vector core v drives the cube over K range [v*kPer, (v+1)*kPer)
 *          and stores the fp32 partial product to workspace slab v.
 * Phase 2: after a global barrier every vector core sums a contiguous piece
 *          of the M*N partials over all slabs and writes it (cast) to C.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename T>
class SplitKGemmKernel {
public:
    using AT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using Mm = matmul::Matmul<AT, BT, CT>;

    __aicore__ inline SplitKGemmKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR ws, const SplitKGemmTilingData &td)
    {
        m_ = td.m;
        n_ = td.n;
        k_ = td.k;
        splits_ = td.kSplits;
        kPer_ = td.kPerSplit;
        redPer_ = td.reducePerCore;
        redTile_ = td.reduceTile;
        vid_ = GetBlockIdx();

        aGm_.SetGlobalBuffer((__gm__ T *)a);
        bGm_.SetGlobalBuffer((__gm__ T *)b);
        cGm_.SetGlobalBuffer((__gm__ T *)c);
        partGm_.SetGlobalBuffer((__gm__ float *)ws);

        pipe_.InitBuffer(inQ_, 2, redTile_ * sizeof(float));
        pipe_.InitBuffer(outQ_, 2, redTile_ * sizeof(T));
        pipe_.InitBuffer(accBuf_, redTile_ * sizeof(float));
    }

    __aicore__ inline void PartialProduct(Mm &mm)
    {
        if (vid_ >= splits_) {
            return;
        }
        uint32_t kBegin = vid_ * kPer_;
        uint32_t kLen = (k_ - kBegin) < kPer_ ? (k_ - kBegin) : kPer_;
        mm.SetSingleShape(m_, n_, kLen);
        mm.SetTensorA(aGm_[kBegin]);                              // columns kBegin.. of A
        mm.SetTensorB(bGm_[static_cast<uint64_t>(kBegin) * n_]);  // rows kBegin.. of B
        mm.IterateAll(partGm_[static_cast<uint64_t>(vid_) * m_ * n_]);
        mm.End();
    }

    __aicore__ inline void ReducePartials()
    {
        SyncAll();  // all slabs must be complete
        uint64_t total = static_cast<uint64_t>(m_) * n_;
        uint64_t begin = static_cast<uint64_t>(vid_) * redPer_;
        if (vid_ >= splits_ || begin >= total) {
            return;
        }
        uint64_t end = begin + redPer_;
        if (end > total) end = total;

        LocalTensor<float> acc = accBuf_.Get<float>();
        for (uint64_t pos = begin; pos < end; pos += redTile_) {
            uint32_t cnt = static_cast<uint32_t>((end - pos) < redTile_ ? (end - pos) : redTile_);
            DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
            for (uint32_t s = 0; s < splits_; ++s) {
                LocalTensor<float> p = inQ_.AllocTensor<float>();
                DataCopyPad(p, partGm_[static_cast<uint64_t>(s) * total + pos], cp,
                            DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                inQ_.EnQue(p);
                p = inQ_.DeQue<float>();
                if (s == 0) {
                    DataCopy(acc, p, (cnt + 7) / 8 * 8);
                } else {
                    Add(acc, acc, p, cnt);
                }
                inQ_.FreeTensor(p);
            }
            LocalTensor<T> o = outQ_.AllocTensor<T>();
            if constexpr (sizeof(T) == sizeof(float)) {
                DataCopy(o.template ReinterpretCast<float>(), acc, (cnt + 7) / 8 * 8);
            } else {
                Cast(o, acc, RoundMode::CAST_ROUND, cnt);
            }
            outQ_.EnQue(o);
            o = outQ_.DeQue<T>();
            DataCopyExtParams oc{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
            DataCopyPad(cGm_[pos], o, oc);
            outQ_.FreeTensor(o);
        }
    }

    __aicore__ inline TPipe *Pipe() { return &pipe_; }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> accBuf_;
    GlobalTensor<T> aGm_, bGm_, cGm_;
    GlobalTensor<float> partGm_;
    uint32_t m_, n_, k_, splits_, kPer_, redPer_, redTile_, vid_;
};

template <typename T>
__aicore__ inline void RunSplitK(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR usr, const SplitKGemmTilingData &td)
{
    SplitKGemmKernel<T> op;
    op.Init(a, b, c, usr, td);
    typename SplitKGemmKernel<T>::Mm mm;
    REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), mm, &td.cube);
    op.PartialProduct(mm);
    op.ReducePartials();
}

extern "C" __global__ __aicore__ void split_k_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (TILING_KEY_IS(1)) {
        RunSplitK<float>(a, b, c, usr, td);
    } else if (TILING_KEY_IS(2)) {
        RunSplitK<half>(a, b, c, usr, td);
    }
}
