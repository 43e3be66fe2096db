#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y[n,c,:,:] = relu(x[n,c,:,:] * scale[c] + shift[c] + residual[n,c,:,:])
//
// This is the tail of a bottleneck block: the last BatchNorm (already folded into a per-channel
// scale/shift on the host), the identity add and the ReLU in one pass over memory.
// Work is split into (plane, chunk) pairs so that every chunk has a single scale/shift.
class BnResidualRelu {
public:
    __aicore__ inline BnResidualRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR residual, GM_ADDR y,
                                const BnResidualReluTilingData &td)
    {
        channels_ = td.channels;
        planes_ = td.planes;
        planeSize_ = td.planeSize;
        chunkLen_ = td.chunkLen;
        chunksPerPlane_ = td.chunksPerPlane;

        const uint64_t total = static_cast<uint64_t>(planes_) * planeSize_;
        xGm_.SetGlobalBuffer((__gm__ float *)x, total);
        rGm_.SetGlobalBuffer((__gm__ float *)residual, total);
        yGm_.SetGlobalBuffer((__gm__ float *)y, total);
        scaleGm_.SetGlobalBuffer((__gm__ float *)scale, channels_);
        shiftGm_.SetGlobalBuffer((__gm__ float *)shift, channels_);

        const uint32_t cAligned = (channels_ + 7) / 8 * 8;
        pipe_.InitBuffer(paramBuf_, 2 * cAligned * sizeof(float));
        pipe_.InitBuffer(xQue_, BUFFER_NUM, chunkLen_ * sizeof(float));
        pipe_.InitBuffer(rQue_, BUFFER_NUM, chunkLen_ * sizeof(float));
        pipe_.InitBuffer(yQue_, BUFFER_NUM, chunkLen_ * sizeof(float));

        // Per-channel parameters are read as scalars, so wait for MTE2 before the scalar unit uses them.
        params_ = paramBuf_.Get<float>();
        AscendC::DataCopyExtParams cp{1, channels_ * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(params_, scaleGm_, cp, np);
        AscendC::DataCopyPad(params_[cAligned], shiftGm_, cp, np);
        shiftOffset_ = cAligned;
        event_t evt = static_cast<event_t>(pipe_.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(evt);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(evt);
    }

    __aicore__ inline void Process()
    {
        const uint32_t work = planes_ * chunksPerPlane_;
        const uint32_t step = AscendC::GetBlockNum();
        for (uint32_t w = AscendC::GetBlockIdx(); w < work; w += step) {
            const uint32_t plane = w / chunksPerPlane_;
            const uint32_t chunk = w % chunksPerPlane_;
            const uint32_t begin = chunk * chunkLen_;
            const uint32_t len = (planeSize_ - begin) < chunkLen_ ? (planeSize_ - begin) : chunkLen_;
            const uint64_t off = static_cast<uint64_t>(plane) * planeSize_ + begin;
            const uint32_t c = plane % channels_;

            CopyIn(off, len);
            Compute(len, params_.GetValue(c), params_.GetValue(shiftOffset_ + c));
            CopyOut(off, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> xl = xQue_.AllocTensor<float>();
        AscendC::LocalTensor<float> rl = rQue_.AllocTensor<float>();
        // Plane sizes in this network (56*56, 28*28, 14*14, 7*7 ...) are frequently not a multiple of
        // 8, so plane starts are not 32B aligned in GM: always use the padded copy.
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xl, xGm_[off], cp, np);
        AscendC::DataCopyPad(rl, rGm_[off], cp, np);
        xQue_.EnQue(xl);
        rQue_.EnQue(rl);
    }

    __aicore__ inline void Compute(uint32_t len, float scale, float shift)
    {
        AscendC::LocalTensor<float> xl = xQue_.DeQue<float>();
        AscendC::LocalTensor<float> rl = rQue_.DeQue<float>();
        AscendC::LocalTensor<float> yl = yQue_.AllocTensor<float>();
        const int32_t n = static_cast<int32_t>(len);

        AscendC::Muls(xl, xl, scale, n);
        AscendC::Adds(xl, xl, shift, n);
        AscendC::Add(xl, xl, rl, n);
        AscendC::Relu(yl, xl, n);

        yQue_.EnQue(yl);
        xQue_.FreeTensor(xl);
        rQue_.FreeTensor(rl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> yl = yQue_.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm_[off], yl, cp);
        yQue_.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> xQue_, rQue_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> yQue_;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> paramBuf_;
    AscendC::GlobalTensor<float> xGm_, rGm_, yGm_, scaleGm_, shiftGm_;
    AscendC::LocalTensor<float> params_;
    uint32_t channels_ = 0, planes_ = 0, planeSize_ = 0, chunkLen_ = 0, chunksPerPlane_ = 0;
    uint32_t shiftOffset_ = 0;
};

extern "C" __global__ __aicore__ void bn_residual_relu_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift,
                                                              GM_ADDR residual, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    BnResidualRelu op;
    op.Init(x, scale, shift, residual, y, td);
    op.Process();
}
