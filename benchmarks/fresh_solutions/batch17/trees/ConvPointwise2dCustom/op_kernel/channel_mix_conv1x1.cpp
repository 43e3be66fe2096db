/*
 * ChannelMixConv1x1: 1x1 convolution (stride 1, no padding) on NCHW tensors.
 *
 * With a 1x1 kernel every image is a plain GEMM over the channel axis:
 *     Y_n (Co x HW) = W (Co x Ci) * X_n (Ci x HW)
 * NCHW already stores X_n as a row-major (Ci x HW) matrix and Y_n as (Co x HW), so no
 * layout transform is needed. The cube Matmul API computes each core's (M, N) block of one
 * image straight into y; the optional bias (one value per output row) is added afterwards
 * by the vector side on the same block, while it is still hot in L2.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class ChannelMixConv1x1Kernel {
    using AT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CT = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    __aicore__ inline ChannelMixConv1x1Kernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const ChannelMixConv1x1Tiling *td)
    {
        td_ = td;
        hw_ = td->spatial;
        xGm_.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(td->batch) * td->cin * hw_);
        wGm_.SetGlobalBuffer((__gm__ T *)w, static_cast<uint64_t>(td->cout) * td->cin);
        yGm_.SetGlobalBuffer((__gm__ T *)y, static_cast<uint64_t>(td->batch) * td->cout * hw_);
        if (td->hasBias) {
            biasGm_.SetGlobalBuffer((__gm__ T *)bias, td->cout);
        }
        REGIST_MATMUL_OBJ(&pipe_, GetSysWorkSpacePtr(), mm_, &td->mm);

        // locate this core's block inside one image's (Co x HW) output
        const TCubeTiling &mt = td->mm;
        uint32_t blk = GetBlockIdx();
        active_ = blk < static_cast<uint32_t>(mt.usedCoreNum);
        uint32_t mBlocks = (mt.M + mt.singleCoreM - 1) / mt.singleCoreM;
        m0_ = (blk % mBlocks) * mt.singleCoreM;
        n0_ = static_cast<uint64_t>(blk / mBlocks) * mt.singleCoreN;
        if (m0_ >= static_cast<uint32_t>(mt.M) || n0_ >= hw_) {
            active_ = false;
        }
        if (active_) {
            uint32_t mLeft = mt.M - m0_;
            uint64_t nLeft = hw_ - n0_;
            tailM_ = mLeft < static_cast<uint32_t>(mt.singleCoreM) ? mLeft : mt.singleCoreM;
            tailN_ = nLeft < static_cast<uint64_t>(mt.singleCoreN) ? static_cast<uint32_t>(nLeft) : mt.singleCoreN;
        }
        if (td->hasBias) {
            pipe_.InitBuffer(epiQue_, 2, td->biasChunk * sizeof(T));
        }
    }

    __aicore__ inline void Process()
    {
        if (!active_) {
            return;
        }
        for (uint32_t n = 0; n < td_->batch; ++n) {
            uint64_t xImg = static_cast<uint64_t>(n) * td_->cin * hw_;
            uint64_t yImg = static_cast<uint64_t>(n) * td_->cout * hw_;
            mm_.SetTensorA(wGm_[static_cast<uint64_t>(m0_) * td_->cin]);
            mm_.SetTensorB(xGm_[xImg + n0_]);
            mm_.SetTail(tailM_, tailN_);
            mm_.IterateAll(yGm_[yImg + static_cast<uint64_t>(m0_) * hw_ + n0_]);
            if (td_->hasBias) {
                PipeBarrier<PIPE_ALL>();
                AddRowBias(yImg);
            }
        }
        mm_.End();
    }

private:
    // y[co, n0 : n0 + tailN] += bias[co] for co in this block
    __aicore__ inline void AddRowBias(uint64_t yImg)
    {
        uint32_t chunk = td_->biasChunk;
        for (uint32_t r = 0; r < tailM_; ++r) {
            T b = biasGm_.GetValue(m0_ + r);
            uint64_t rowBase = yImg + static_cast<uint64_t>(m0_ + r) * hw_ + n0_;
            for (uint32_t c = 0; c < tailN_; c += chunk) {
                uint32_t len = (tailN_ - c) < chunk ? (tailN_ - c) : chunk;
                LocalTensor<T> buf = epiQue_.AllocTensor<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                DataCopyPad(buf, yGm_[rowBase + c], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
                epiQue_.EnQue(buf);
                buf = epiQue_.DeQue<T>();
                Adds(buf, buf, b, len);
                event_t ev = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_MTE3));
                SetFlag<HardEvent::V_MTE3>(ev);
                WaitFlag<HardEvent::V_MTE3>(ev);
                DataCopyPad(yGm_[rowBase + c], buf, cp);
                epiQue_.FreeTensor(buf);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

private:
    TPipe pipe_;
    Matmul<AT, BT, CT, BiasT> mm_;
    TQue<QuePosition::VECIN, 2> epiQue_;
    GlobalTensor<T> xGm_, wGm_, yGm_, biasGm_;
    const ChannelMixConv1x1Tiling *td_ = nullptr;
    uint64_t hw_ = 0, n0_ = 0;
    uint32_t m0_ = 0, tailM_ = 0, tailN_ = 0;
    bool active_ = false;
};

extern "C" __global__ __aicore__ void channel_mix_conv1x1(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    if (GetUserWorkspace(workspace) == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    ChannelMixConv1x1Kernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, &td);
    op.Process();
}
