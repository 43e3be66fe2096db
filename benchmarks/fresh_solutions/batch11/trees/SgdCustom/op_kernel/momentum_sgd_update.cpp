#include "kernel_operator.h"

// Heavy-ball SGD step:
//   v' = momentum * v + g
//   p' = p - lr * v'
// fp16 tensors are widened to fp32 for the arithmetic and narrowed on the way out.

namespace {
constexpr int32_t DEPTH = 2;
}

template <typename T>
class MomentumSgdUpdateKernel {
public:
    __aicore__ inline MomentumSgdUpdateKernel() {}

    __aicore__ inline void Init(GM_ADDR p, GM_ADDR g, GM_ADDR v, GM_ADDR pOut, GM_ADDR vOut,
                                const MomentumSgdUpdateTilingData &td)
    {
        const uint32_t idx = AscendC::GetBlockIdx();
        uint64_t offset;
        if (idx < td.formerNum) {
            len_ = td.formerLength;
            offset = static_cast<uint64_t>(idx) * td.formerLength;
        } else {
            len_ = td.tailLength;
            offset = static_cast<uint64_t>(td.formerNum) * td.formerLength +
                     static_cast<uint64_t>(idx - td.formerNum) * td.tailLength;
        }
        // the last unit may run past the real end of the tensor
        if (offset >= td.totalLength) {
            len_ = 0;
        } else if (offset + len_ > td.totalLength) {
            len_ = static_cast<uint32_t>(td.totalLength - offset);
        }
        tile_ = td.tileLength;
        lr_ = td.lr;
        mom_ = td.momentum;

        pGm_.SetGlobalBuffer((__gm__ T *)p + offset, len_);
        gGm_.SetGlobalBuffer((__gm__ T *)g + offset, len_);
        vGm_.SetGlobalBuffer((__gm__ T *)v + offset, len_);
        pOutGm_.SetGlobalBuffer((__gm__ T *)pOut + offset, len_);
        vOutGm_.SetGlobalBuffer((__gm__ T *)vOut + offset, len_);

        pipe_.InitBuffer(inP_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(inG_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(inV_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(outP_, DEPTH, tile_ * sizeof(T));
        pipe_.InitBuffer(outV_, DEPTH, tile_ * sizeof(T));
        if constexpr (sizeof(T) == 2) {
            pipe_.InitBuffer(f32Buf_, 3 * tile_ * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t off = 0; off < len_; off += tile_) {
            const uint32_t n = (len_ - off) < tile_ ? (len_ - off) : tile_;
            Load(off, n);
            Update(n);
            Store(off, n);
        }
    }

private:
    __aicore__ inline void Load(uint32_t off, uint32_t n)
    {
        AscendC::LocalTensor<T> p = inP_.AllocTensor<T>();
        AscendC::LocalTensor<T> g = inG_.AllocTensor<T>();
        AscendC::LocalTensor<T> v = inV_.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(p, pGm_[off], cp, pad);
        AscendC::DataCopyPad(g, gGm_[off], cp, pad);
        AscendC::DataCopyPad(v, vGm_[off], cp, pad);
        inP_.EnQue(p);
        inG_.EnQue(g);
        inV_.EnQue(v);
    }

    __aicore__ inline void Update(uint32_t n)
    {
        AscendC::LocalTensor<T> p = inP_.DeQue<T>();
        AscendC::LocalTensor<T> g = inG_.DeQue<T>();
        AscendC::LocalTensor<T> v = inV_.DeQue<T>();
        AscendC::LocalTensor<T> pNew = outP_.AllocTensor<T>();
        AscendC::LocalTensor<T> vNew = outV_.AllocTensor<T>();

        if constexpr (sizeof(T) == 2) {
            AscendC::LocalTensor<float> f = f32Buf_.Get<float>();
            AscendC::LocalTensor<float> fp = f;
            AscendC::LocalTensor<float> fg = f[tile_];
            AscendC::LocalTensor<float> fv = f[2 * tile_];
            AscendC::Cast(fp, p, AscendC::RoundMode::CAST_NONE, n);
            AscendC::Cast(fg, g, AscendC::RoundMode::CAST_NONE, n);
            AscendC::Cast(fv, v, AscendC::RoundMode::CAST_NONE, n);
            AscendC::Muls(fv, fv, mom_, n);
            AscendC::Add(fv, fv, fg, n);              // v' = m*v + g
            AscendC::Axpy(fp, fv, -lr_, n);           // p' = p - lr*v'
            AscendC::Cast(vNew, fv, AscendC::RoundMode::CAST_ROUND, n);
            AscendC::Cast(pNew, fp, AscendC::RoundMode::CAST_ROUND, n);
        } else {
            AscendC::Muls(vNew, v, mom_, n);
            AscendC::Add(vNew, vNew, g, n);
            AscendC::Muls(pNew, vNew, -lr_, n);
            AscendC::Add(pNew, pNew, p, n);
        }

        outP_.EnQue(pNew);
        outV_.EnQue(vNew);
        inP_.FreeTensor(p);
        inG_.FreeTensor(g);
        inV_.FreeTensor(v);
    }

    __aicore__ inline void Store(uint32_t off, uint32_t n)
    {
        AscendC::LocalTensor<T> pNew = outP_.DeQue<T>();
        AscendC::LocalTensor<T> vNew = outV_.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(pOutGm_[off], pNew, cp);
        AscendC::DataCopyPad(vOutGm_[off], vNew, cp);
        outP_.FreeTensor(pNew);
        outV_.FreeTensor(vNew);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, DEPTH> inP_, inG_, inV_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, DEPTH> outP_, outV_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> f32Buf_;
    AscendC::GlobalTensor<T> pGm_, gGm_, vGm_, pOutGm_, vOutGm_;
    uint32_t len_ = 0;
    uint32_t tile_ = 0;
    float lr_ = 0.0f;
    float mom_ = 0.0f;
};

extern "C" __global__ __aicore__ void momentum_sgd_update(GM_ADDR param, GM_ADDR grad, GM_ADDR velocity,
                                                          GM_ADDR param_out, GM_ADDR velocity_out,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        MomentumSgdUpdateKernel<float> op;
        op.Init(param, grad, velocity, param_out, velocity_out, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        MomentumSgdUpdateKernel<half> op;
        op.Init(param, grad, velocity, param_out, velocity_out, td);
        op.Process();
    }
}
