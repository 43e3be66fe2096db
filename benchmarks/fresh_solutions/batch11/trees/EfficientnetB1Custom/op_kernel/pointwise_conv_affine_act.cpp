// 1x1 convolution as a GEMM per image, with a per-output-channel affine epilogue
// (folded batch-norm) and optional ReLU / ReLU6, applied on the GEMM tiles in UB
// before they are written to GM.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

enum class PwAct : uint32_t { NONE = 0, RELU = 1, RELU6 = 2 };

template <typename T>
class PointwiseConvAffineActOp {
    using WType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using XType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using YType = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, T>;

public:
    matmul::Matmul<WType, XType, YType, YType> mm;

    __aicore__ inline PointwiseConvAffineActOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const PointwiseConvAffineActTilingData &td, TPipe *pipe)
    {
        td_ = &td;
        const uint64_t xLen = (uint64_t)td.batch * td.inChannels * td.spatial;
        const uint64_t yLen = (uint64_t)td.batch * td.outChannels * td.spatial;
        xGm.SetGlobalBuffer((__gm__ T *)x, xLen);
        yGm.SetGlobalBuffer((__gm__ T *)y, yLen);
        wGm.SetGlobalBuffer((__gm__ T *)w, (uint64_t)td.outChannels * td.inChannels);
        scaleGm.SetGlobalBuffer((__gm__ T *)scale, td.outChannels);
        shiftGm.SetGlobalBuffer((__gm__ T *)shift, td.outChannels);

        baseM = td.gemm.baseM;
        baseN = td.gemm.baseN;
        uint32_t chAlign = (td.outChannels + 15) / 16 * 16;
        pipe->InitBuffer(cQue, 2, baseM * baseN * sizeof(T));
        pipe->InitBuffer(chanBuf, 2 * chAlign * sizeof(T));

        // Per-channel affine parameters stay resident in UB for the whole launch.
        LocalTensor<T> chan = chanBuf.Get<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(td.outChannels * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(chan, scaleGm, cp, pad);
        DataCopyPad(chan[chAlign], shiftGm, cp, pad);
        shiftOff = chAlign;
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < td_->totalTiles; u += td_->coreNum) {
            const uint32_t img = u / td_->tilesPerImage;
            const uint32_t nOff = (u % td_->tilesPerImage) * td_->spatialTile;
            const uint32_t curN = (td_->spatial - nOff) < td_->spatialTile ? (td_->spatial - nOff) : td_->spatialTile;
            RunTile(img, nOff, curN);
        }
    }

private:
    __aicore__ inline void RunTile(uint32_t img, uint32_t nOff, uint32_t curN)
    {
        const uint64_t xBase = (uint64_t)img * td_->inChannels * td_->spatial + nOff;
        const uint64_t yBase = (uint64_t)img * td_->outChannels * td_->spatial + nOff;
        mm.SetTail(td_->outChannels, curN, td_->inChannels);
        mm.SetTensorA(wGm);
        mm.SetTensorB(xGm[xBase]);

        const uint32_t mIters = (td_->outChannels + baseM - 1) / baseM;
        const uint32_t nIters = (curN + baseN - 1) / baseN;
        uint32_t step = 0;
        while (mm.Iterate()) {
            LocalTensor<T> c = cQue.AllocTensor<T>();
            mm.GetTensorC(c, false, true);
            uint32_t mi, ni;
            if (td_->gemm.iterateOrder == 0) {
                mi = step % mIters;
                ni = step / mIters;
            } else {
                ni = step % nIters;
                mi = step / nIters;
            }
            ++step;
            const uint32_t row0 = mi * baseM;
            const uint32_t col0 = ni * baseN;
            const uint32_t rows = (td_->outChannels - row0) < baseM ? (td_->outChannels - row0) : baseM;
            const uint32_t cols = (curN - col0) < baseN ? (curN - col0) : baseN;
            Epilogue(c, row0, rows);
            cQue.EnQue(c);
            WriteBack(yBase + (uint64_t)row0 * td_->spatial + col0, rows, cols);
        }
        mm.End();
    }

    __aicore__ inline void Epilogue(LocalTensor<T> &c, uint32_t row0, uint32_t rows)
    {
        LocalTensor<T> chan = chanBuf.Get<T>();
        for (uint32_t r = 0; r < rows; ++r) {
            T s = chan.GetValue(row0 + r);
            T b = chan.GetValue(shiftOff + row0 + r);
            Muls(c[r * baseN], c[r * baseN], s, baseN);
            Adds(c[r * baseN], c[r * baseN], b, baseN);
        }
        const uint32_t n = rows * baseN;
        if (td_->activation == static_cast<uint32_t>(PwAct::RELU)) {
            Relu(c, c, n);
        } else if (td_->activation == static_cast<uint32_t>(PwAct::RELU6)) {
            Maxs(c, c, static_cast<T>(0), n);
            Mins(c, c, static_cast<T>(6), n);
        }
    }

    __aicore__ inline void WriteBack(uint64_t gmOff, uint32_t rows, uint32_t cols)
    {
        LocalTensor<T> c = cQue.DeQue<T>();
        DataCopyExtParams p;
        p.blockCount = static_cast<uint16_t>(rows);
        p.blockLen = cols * sizeof(T);
        p.srcStride = (baseN - cols) * sizeof(T) / 32;           // UB side, in 32B blocks
        p.dstStride = (td_->spatial - cols) * sizeof(T);          // GM side, in bytes
        p.rsv = 0;
        DataCopyPad(yGm[gmOff], c, p);
        cQue.FreeTensor(c);
    }

    const PointwiseConvAffineActTilingData *td_ = nullptr;
    GlobalTensor<T> xGm, yGm, wGm, scaleGm, shiftGm;
    TQue<QuePosition::VECIN, 2> cQue;
    TBuf<TPosition::VECCALC> chanBuf;
    uint32_t baseM = 0;
    uint32_t baseN = 0;
    uint32_t shiftOff = 0;
};

extern "C" __global__ __aicore__ void pointwise_conv_affine_act(GM_ADDR x, GM_ADDR weight, GM_ADDR scale,
                                                                GM_ADDR shift, GM_ADDR y, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(td, tiling);
    if (GetUserWorkspace(workspace) == nullptr) {
        return;
    }
    TPipe pipe;
    PointwiseConvAffineActOp<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.gemm);
    op.Init(x, weight, scale, shift, y, td, &pipe);
    op.Process();
}
