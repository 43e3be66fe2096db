/**
 * @file volumetric_deconv.cpp
 * AIV kernel of VolumetricDeconv (3-D transposed convolution, NCDHW, fp32).
 *
 * Output-stationary ("gather") formulation:
 *   y[n, oc, od, oh, ow] = bias[oc] +
 *       sum_{ic in group(oc)} sum_{kd,kh,kw} x[n, ic, id, ih, iw] * w[ic, oc%Cg, kd, kh, kw]
 *   with od = id*sd - pd + kd (same for h, w); taps that do not land on an
 *   integer input coordinate contribute nothing.
 *
 * One output line (fixed n, oc, od, oh) is produced at a time. For every
 * (ic, kd, kh) that maps onto a real input line, that line is DMA'd into UB and
 * for each kw a Gather instruction realigns it to the output grid (invalid
 * positions read a zeroed slot), followed by an Axpy with the weight scalar.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t OUT_BUFS = 2;
constexpr uint32_t ZERO_SLOT = 8;  // first 32 bytes of the line buffer stay zero

__aicore__ inline uint32_t AlignUp8(uint32_t v) { return (v + 7U) & ~7U; }
}  // namespace

class VolumetricDeconvKernel {
public:
    __aicore__ inline VolumetricDeconvKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const VolumetricDeconvTilingData &t)
    {
        td_ = t;
        cinG_ = t.inChannels / t.groups;
        coutG_ = t.outChannels / t.groups;
        kVol_ = t.kD * t.kH * t.kW;
        kVolPad_ = AlignUp8(kVol_);
        owPad_ = AlignUp8(t.outW);

        rowBegin_ = GetBlockIdx() * t.rowsPerCore;
        uint32_t rowEnd = rowBegin_ + t.rowsPerCore;
        rowEnd_ = rowEnd > t.totalRows ? t.totalRows : rowEnd;

        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)w);
        if (t.hasBias != 0) {
            bGm_.SetGlobalBuffer((__gm__ float *)b);
        }
        yGm_.SetGlobalBuffer((__gm__ float *)y);

        pipe_.InitBuffer(lineBuf_, (ZERO_SLOT + AlignUp8(t.inW)) * sizeof(float));
        pipe_.InitBuffer(scratchBuf_, owPad_ * sizeof(float));
        pipe_.InitBuffer(offsetBuf_, owPad_ * t.kW * sizeof(uint32_t));
        pipe_.InitBuffer(weightBuf_, cinG_ * kVolPad_ * sizeof(float));
        pipe_.InitBuffer(outQue_, OUT_BUFS, owPad_ * sizeof(float));

        BuildGatherTable();
    }

    __aicore__ inline void Process()
    {
        if (rowBegin_ >= rowEnd_) {
            return;
        }
        evVecToMte2_ = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        evMte2ToVec_ = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::V_MTE2>(evVecToMte2_);

        int64_t loadedOc = -1;
        for (uint32_t row = rowBegin_; row < rowEnd_; ++row) {
            uint32_t rest = row;
            const uint32_t oh = rest % td_.outH;
            rest /= td_.outH;
            const uint32_t od = rest % td_.outD;
            rest /= td_.outD;
            const uint32_t oc = rest % td_.outChannels;
            const uint32_t n = rest / td_.outChannels;
            if (static_cast<int64_t>(oc) != loadedOc) {
                LoadWeightSlice(oc);
                loadedOc = oc;
            }
            ComputeLine(n, oc, od, oh);
            StoreLine(row);
        }
        WaitFlag<HardEvent::V_MTE2>(evVecToMte2_);
    }

private:
    // offsets[kw][ow] = byte offset of x[iw] inside the line buffer, or of the
    // zero slot when (ow + pw - kw) is not a multiple of the stride / out of range.
    __aicore__ inline void BuildGatherTable()
    {
        LocalTensor<uint32_t> offs = offsetBuf_.Get<uint32_t>();
        for (uint32_t k = 0; k < td_.kW; ++k) {
            for (uint32_t o = 0; o < owPad_; ++o) {
                uint32_t byteOff = 0;
                int32_t t = static_cast<int32_t>(o) + static_cast<int32_t>(td_.padW) - static_cast<int32_t>(k);
                if (o < td_.outW && t >= 0 && (t % static_cast<int32_t>(td_.strideW)) == 0) {
                    uint32_t iw = static_cast<uint32_t>(t) / td_.strideW;
                    if (iw < td_.inW) {
                        byteOff = (ZERO_SLOT + iw) * sizeof(float);
                    }
                }
                offs.SetValue(k * owPad_ + o, byteOff);
            }
        }
        LocalTensor<float> line = lineBuf_.Get<float>();
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        Duplicate(line, 0.0f, ZERO_SLOT);
        PipeBarrier<PIPE_V>();
    }

    // Pull w[g*Cg .. g*Cg+Cg-1, oc % coutG, :, :, :] into UB, one padded row per ic.
    __aicore__ inline void LoadWeightSlice(uint32_t oc)
    {
        const uint32_t g = oc / coutG_;
        const uint32_t ocl = oc % coutG_;
        const uint64_t src = (static_cast<uint64_t>(g * cinG_) * coutG_ + ocl) * kVol_;
        LocalTensor<float> wl = weightBuf_.Get<float>();

        event_t evSM = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(evSM);
        WaitFlag<HardEvent::S_MTE2>(evSM);

        DataCopyExtParams cp{static_cast<uint16_t>(cinG_), kVol_ * static_cast<uint32_t>(sizeof(float)),
                             (coutG_ - 1) * kVol_ * static_cast<uint32_t>(sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm_[src], cp, noPad);

        event_t evMS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evMS);
        WaitFlag<HardEvent::MTE2_S>(evMS);
    }

    __aicore__ inline bool MapTap(uint32_t o, uint32_t k, uint32_t pad, uint32_t stride, uint32_t inLen,
                                  uint32_t &i) const
    {
        int32_t t = static_cast<int32_t>(o) + static_cast<int32_t>(pad) - static_cast<int32_t>(k);
        if (t < 0 || (t % static_cast<int32_t>(stride)) != 0) {
            return false;
        }
        i = static_cast<uint32_t>(t) / stride;
        return i < inLen;
    }

    __aicore__ inline void ComputeLine(uint32_t n, uint32_t oc, uint32_t od, uint32_t oh)
    {
        LocalTensor<float> acc = outQue_.AllocTensor<float>();
        const float biasVal = td_.hasBias != 0 ? bGm_.GetValue(oc) : 0.0f;
        Duplicate(acc, biasVal, owPad_);

        LocalTensor<float> line = lineBuf_.Get<float>();
        LocalTensor<float> scratch = scratchBuf_.Get<float>();
        LocalTensor<uint32_t> offs = offsetBuf_.Get<uint32_t>();
        LocalTensor<float> wl = weightBuf_.Get<float>();

        const uint32_t g = oc / coutG_;
        const uint32_t lineBytes = td_.inW * sizeof(float);
        DataCopyExtParams cp{1, lineBytes, 0, 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};

        for (uint32_t kd = 0; kd < td_.kD; ++kd) {
            uint32_t id;
            if (!MapTap(od, kd, td_.padD, td_.strideD, td_.inD, id)) {
                continue;
            }
            for (uint32_t kh = 0; kh < td_.kH; ++kh) {
                uint32_t ih;
                if (!MapTap(oh, kh, td_.padH, td_.strideH, td_.inH, ih)) {
                    continue;
                }
                for (uint32_t icl = 0; icl < cinG_; ++icl) {
                    const uint32_t ic = g * cinG_ + icl;
                    const uint64_t src =
                        (((static_cast<uint64_t>(n) * td_.inChannels + ic) * td_.inD + id) * td_.inH + ih) * td_.inW;

                    // previous gathers must be done before the line is overwritten
                    WaitFlag<HardEvent::V_MTE2>(evVecToMte2_);
                    DataCopyPad(line[ZERO_SLOT], xGm_[src], cp, noPad);
                    SetFlag<HardEvent::MTE2_V>(evMte2ToVec_);
                    WaitFlag<HardEvent::MTE2_V>(evMte2ToVec_);

                    const uint32_t wBase = icl * kVolPad_ + (kd * td_.kH + kh) * td_.kW;
                    for (uint32_t kw = 0; kw < td_.kW; ++kw) {
                        const float wv = wl.GetValue(wBase + kw);
                        Gather(scratch, line, offs[kw * owPad_], 0U, owPad_);
                        PipeBarrier<PIPE_V>();
                        Axpy(acc, scratch, wv, owPad_);
                        PipeBarrier<PIPE_V>();
                    }
                    SetFlag<HardEvent::V_MTE2>(evVecToMte2_);
                }
            }
        }
        outQue_.EnQue(acc);
    }

    __aicore__ inline void StoreLine(uint32_t row)
    {
        LocalTensor<float> acc = outQue_.DeQue<float>();
        DataCopyExtParams cp{1, td_.outW * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_[static_cast<uint64_t>(row) * td_.outW], acc, cp);
        outQue_.FreeTensor(acc);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> lineBuf_, scratchBuf_, offsetBuf_, weightBuf_;
    TQue<TPosition::VECOUT, OUT_BUFS> outQue_;
    GlobalTensor<float> xGm_, wGm_, bGm_, yGm_;
    VolumetricDeconvTilingData td_;
    uint32_t cinG_ = 0, coutG_ = 0, kVol_ = 0, kVolPad_ = 0, owPad_ = 0;
    uint32_t rowBegin_ = 0, rowEnd_ = 0;
    event_t evVecToMte2_, evMte2ToVec_;
};

extern "C" __global__ __aicore__ void volumetric_deconv(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    VolumetricDeconvKernel op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
