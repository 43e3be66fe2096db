// HyperbolicTangent: y = tanh(x), element-wise, fp32 / fp16.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelHyperbolicTangent {
public:
    __aicore__ inline KernelHyperbolicTangent() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const HyperbolicTangentTilingData &td)
    {
        uint64_t offset = td.elemPerCore * AscendC::GetBlockIdx();
        // the last core gets whatever is left over
        uint64_t remain = td.elemTotal > offset ? td.elemTotal - offset : 0;
        coreLen = remain < td.elemPerCore ? remain : td.elemPerCore;
        tileLen = td.tileLen;

        xGm.SetGlobalBuffer((__gm__ T *)x + offset, coreLen);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, coreLen);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(tmpBuf, td.tmpBytes);
    }

    __aicore__ inline void Process()
    {
        uint64_t fullTiles = coreLen / tileLen;
        uint32_t tail = static_cast<uint32_t>(coreLen % tileLen);
        for (uint64_t i = 0; i < fullTiles; ++i) {
            CopyIn(i * tileLen, tileLen);
            Compute(tileLen);
            CopyOut(i * tileLen, tileLen);
        }
        if (tail > 0) {
            CopyIn(fullTiles * tileLen, tail);
            Compute(tail);
            CopyOut(fullTiles * tileLen, tail);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[off], params, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        AscendC::LocalTensor<uint8_t> scratch = tmpBuf.Get<uint8_t>();
        AscendC::Tanh(yLocal, xLocal, scratch, len);
        outQueue.EnQue<T>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueue.DeQue<T>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint64_t coreLen = 0;
    uint32_t tileLen = 0;
};

extern "C" __global__ __aicore__ void hyperbolic_tangent(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(0)) {
        KernelHyperbolicTangent<float> op;
        op.Init(x, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        KernelHyperbolicTangent<half> op;
        op.Init(x, y, tilingData);
        op.Process();
    }
}
