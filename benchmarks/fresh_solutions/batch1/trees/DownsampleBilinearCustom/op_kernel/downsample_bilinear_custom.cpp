#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Bilinear resize, align_corners=False (PyTorch semantics):
//   src = max((dst + 0.5) * scale - 0.5, 0); i0 = floor(src); i1 = min(i0 + 1, in - 1); l = src - i0
// One task = one output row of one (n, c) plane:
//   1) fetch input rows i0 and i1, blend them vertically with ly
//   2) horizontal blend via Gather with per-column byte offsets precomputed once
class DownsampleBilinearKernel {
public:
    __aicore__ inline DownsampleBilinearKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const DownsampleBilinearCustomTilingData& td)
    {
        inH_ = td.inH;
        inW_ = td.inW;
        outH_ = td.outH;
        outW_ = td.outW;
        inWA_ = td.inWAlign;
        outWA_ = td.outWAlign;
        scaleH_ = td.scaleH;
        scaleW_ = td.scaleW;

        begin_ = GetBlockIdx() * td.rowsPerCore;
        end_ = begin_ + td.rowsPerCore;
        if (end_ > td.totalRows) end_ = td.totalRows;

        xGm_.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.planes * inH_ * inW_);
        yGm_.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.planes * outH_ * outW_);

        pipe_.InitBuffer(rowQue_, BUFFER_NUM, 2 * inWA_ * sizeof(float));   // rows i0 and i1
        pipe_.InitBuffer(outQue_, BUFFER_NUM, outWA_ * sizeof(float));
        pipe_.InitBuffer(blendBuf_, inWA_ * sizeof(float));
        pipe_.InitBuffer(g0Buf_, outWA_ * sizeof(float));
        pipe_.InitBuffer(g1Buf_, outWA_ * sizeof(float));
        pipe_.InitBuffer(off0Buf_, outWA_ * sizeof(uint32_t));
        pipe_.InitBuffer(off1Buf_, outWA_ * sizeof(uint32_t));
        pipe_.InitBuffer(lxBuf_, outWA_ * sizeof(float));

        BuildColumnTables();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = begin_; task < end_; ++task) {
            uint32_t plane = task / outH_;
            uint32_t oh = task - plane * outH_;

            float sy = ((float)oh + 0.5f) * scaleH_ - 0.5f;
            if (sy < 0.0f) sy = 0.0f;
            uint32_t y0 = (uint32_t)sy;
            if (y0 > inH_ - 1) y0 = inH_ - 1;
            uint32_t y1 = (y0 + 1 < inH_) ? y0 + 1 : inH_ - 1;
            float ly = sy - (float)y0;

            LoadRows(plane, y0, y1);
            Interpolate(ly);
            Store(plane, oh);
        }
    }

private:
    __aicore__ inline void BuildColumnTables()
    {
        LocalTensor<uint32_t> off0 = off0Buf_.Get<uint32_t>();
        LocalTensor<uint32_t> off1 = off1Buf_.Get<uint32_t>();
        LocalTensor<float> lx = lxBuf_.Get<float>();
        for (uint32_t j = 0; j < outWA_; ++j) {
            uint32_t jj = j < outW_ ? j : outW_ - 1;   // pad lanes replicate the last column
            float sx = ((float)jj + 0.5f) * scaleW_ - 0.5f;
            if (sx < 0.0f) sx = 0.0f;
            uint32_t x0 = (uint32_t)sx;
            if (x0 > inW_ - 1) x0 = inW_ - 1;
            uint32_t x1 = (x0 + 1 < inW_) ? x0 + 1 : inW_ - 1;
            off0.SetValue(j, x0 * (uint32_t)sizeof(float));
            off1.SetValue(j, x1 * (uint32_t)sizeof(float));
            lx.SetValue(j, sx - (float)x0);
        }
        event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline void LoadRows(uint32_t plane, uint32_t y0, uint32_t y1)
    {
        LocalTensor<float> rows = rowQue_.AllocTensor<float>();
        uint64_t base = (uint64_t)plane * inH_ * inW_;
        DataCopyExtParams cp{1, inW_ * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(rows, xGm_[base + (uint64_t)y0 * inW_], cp, pp);
        DataCopyPad(rows[inWA_], xGm_[base + (uint64_t)y1 * inW_], cp, pp);
        rowQue_.EnQue(rows);
    }

    __aicore__ inline void Interpolate(float ly)
    {
        LocalTensor<float> rows = rowQue_.DeQue<float>();
        LocalTensor<float> out = outQue_.AllocTensor<float>();
        LocalTensor<float> blend = blendBuf_.Get<float>();
        LocalTensor<float> g0 = g0Buf_.Get<float>();
        LocalTensor<float> g1 = g1Buf_.Get<float>();
        LocalTensor<uint32_t> off0 = off0Buf_.Get<uint32_t>();
        LocalTensor<uint32_t> off1 = off1Buf_.Get<uint32_t>();
        LocalTensor<float> lx = lxBuf_.Get<float>();

        // vertical: blend = r0 + (r1 - r0) * ly
        Sub(blend, rows[inWA_], rows, inW_);
        Muls(blend, blend, ly, inW_);
        Add(blend, blend, rows, inW_);

        // horizontal: out = g0 + (g1 - g0) * lx
        Gather(g0, blend, off0, (uint32_t)0, outWA_);
        Gather(g1, blend, off1, (uint32_t)0, outWA_);
        Sub(g1, g1, g0, outWA_);
        Mul(g1, g1, lx, outWA_);
        Add(out, g0, g1, outWA_);

        outQue_.EnQue(out);
        rowQue_.FreeTensor(rows);
    }

    __aicore__ inline void Store(uint32_t plane, uint32_t oh)
    {
        LocalTensor<float> out = outQue_.DeQue<float>();
        DataCopyExtParams cp{1, outW_ * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm_[((uint64_t)plane * outH_ + oh) * outW_], out, cp);
        outQue_.FreeTensor(out);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    TBuf<TPosition::VECCALC> blendBuf_, g0Buf_, g1Buf_, off0Buf_, off1Buf_, lxBuf_;
    GlobalTensor<float> xGm_, yGm_;
    uint32_t inH_, inW_, outH_, outW_, inWA_, outWA_;
    uint32_t begin_, end_;
    float scaleH_, scaleW_;
};

extern "C" __global__ __aicore__ void downsample_bilinear_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                 GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    DownsampleBilinearKernel op;
    op.Init(x, y, tilingData);
    op.Process();
}
