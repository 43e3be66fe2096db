// PlanarTransposedConv: 2-D transposed convolution (NCHW, fp32) on the vector units.
//
// Every core owns a run of output rows (n, oc, oh). For a row, the list of
// contributing (ic, kh) taps is walked with a double-buffered pipeline:
//   CopyIn  : DMA the input line x[n, ic, ih, :] into UB (behind 8 zero lanes)
//   Compute : for each kw, Gather the line onto the output column grid using a
//             precomputed byte-offset table, then Axpy into the row accumulator.
// Stride, padding and dilation along W are all folded into the offset tables;
// along H they decide which (kh, ih) pairs are visited.
#include "kernel_operator.h"

namespace {
constexpr int32_t LINE_DEPTH = 2;
constexpr uint32_t GUARD = 8;  // zero lanes addressed by "no contribution" taps

__aicore__ inline uint32_t RoundUp8(uint32_t v) { return (v + 7U) / 8U * 8U; }
}  // namespace

class PlanarTransposedConvKernel {
public:
    __aicore__ inline PlanarTransposedConvKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const PlanarTransposedConvTilingData &tiling)
    {
        p = tiling;
        ciPerG = p.ci / p.groups;
        coPerG = p.co / p.groups;
        taps = p.kh * p.kw;
        tapsPad = RoundUp8(taps);
        woPad = RoundUp8(p.wo);

        const uint32_t core = AscendC::GetBlockIdx();
        rowStart = core * p.rowsBase + (core < p.rowsExtra ? core : p.rowsExtra);
        rowNum = p.rowsBase + (core < p.rowsExtra ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        if (p.withBias) {
            bGm.SetGlobalBuffer((__gm__ float *)bias);
        }

        pipe.InitBuffer(lineQ, LINE_DEPTH, (GUARD + RoundUp8(p.wi)) * sizeof(float));
        pipe.InitBuffer(rowQ, 2, woPad * sizeof(float));
        pipe.InitBuffer(tmpBuf, woPad * sizeof(float));
        pipe.InitBuffer(tableBuf, p.kw * woPad * sizeof(uint32_t));
        pipe.InitBuffer(weightBuf, ciPerG * tapsPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowNum == 0) {
            return;
        }
        FillTables();
        uint32_t cachedOc = 0xFFFFFFFFU;
        for (uint32_t r = rowStart; r < rowStart + rowNum; ++r) {
            const uint32_t oh = r % p.ho;
            const uint32_t oc = (r / p.ho) % p.co;
            const uint32_t n = r / (p.ho * p.co);
            if (oc != cachedOc) {
                FetchWeights(oc);
                cachedOc = oc;
            }
            RunRow(n, oc, oh);
            FlushRow(r);
        }
    }

private:
    __aicore__ inline void FillTables()
    {
        AscendC::LocalTensor<uint32_t> tbl = tableBuf.Get<uint32_t>();
        for (uint32_t j = 0; j < p.kw; ++j) {
            const int32_t shift = static_cast<int32_t>(p.pw) - static_cast<int32_t>(j * p.dw);
            for (uint32_t c = 0; c < woPad; ++c) {
                const int32_t num = static_cast<int32_t>(c) + shift;
                uint32_t pos = 0;
                if (c < p.wo && num >= 0 && num % static_cast<int32_t>(p.sw) == 0 &&
                    static_cast<uint32_t>(num) / p.sw < p.wi) {
                    pos = (GUARD + static_cast<uint32_t>(num) / p.sw) * sizeof(float);
                }
                tbl.SetValue(j * woPad + c, pos);
            }
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
    }

    // w[ic, oc % coPerG, :, :] for all ic of oc's group, one 32B-padded row per ic
    __aicore__ inline void FetchWeights(uint32_t oc)
    {
        const uint32_t g = oc / coPerG;
        const uint64_t off = (static_cast<uint64_t>(g) * ciPerG * coPerG + (oc % coPerG)) * taps;
        AscendC::LocalTensor<float> wl = weightBuf.Get<float>();
        event_t evSM = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_MTE2));
        AscendC::SetFlag<AscendC::HardEvent::S_MTE2>(evSM);
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE2>(evSM);
        AscendC::DataCopyPad(wl, wGm[off],
                             AscendC::DataCopyExtParams{static_cast<uint16_t>(ciPerG), taps * 4U,
                                                        (coPerG - 1) * taps * 4U, 0, 0},
                             AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        event_t evMS = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(evMS);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(evMS);
    }

    __aicore__ inline void RunRow(uint32_t n, uint32_t oc, uint32_t oh)
    {
        AscendC::LocalTensor<float> acc = rowQ.AllocTensor<float>();
        AscendC::Duplicate(acc, p.withBias ? bGm.GetValue(oc) : 0.0f, woPad);

        // collect contributing (kh, ih) pairs for this output row
        uint32_t khList[32];
        uint32_t ihList[32];
        uint32_t hits = 0;
        for (uint32_t i = 0; i < p.kh && hits < 32; ++i) {
            const int32_t num = static_cast<int32_t>(oh + p.ph) - static_cast<int32_t>(i * p.dh);
            if (num >= 0 && num % static_cast<int32_t>(p.sh) == 0 && static_cast<uint32_t>(num) / p.sh < p.hi) {
                khList[hits] = i;
                ihList[hits] = static_cast<uint32_t>(num) / p.sh;
                ++hits;
            }
        }

        const uint32_t steps = hits * ciPerG;
        const uint32_t icBase = (oc / coPerG) * ciPerG;
        if (steps > 0) {
            CopyIn(n, icBase, ihList[0]);
        }
        for (uint32_t s = 0; s < steps; ++s) {
            const uint32_t icl = s % ciPerG;
            const uint32_t hIdx = s / ciPerG;
            if (s + 1 < steps) {  // prefetch the next line while this one is consumed
                CopyIn(n, icBase + (s + 1) % ciPerG, ihList[(s + 1) / ciPerG]);
            }
            Compute(acc, icl, khList[hIdx]);
        }
        rowQ.EnQue(acc);
    }

    __aicore__ inline void CopyIn(uint32_t n, uint32_t ic, uint32_t ih)
    {
        AscendC::LocalTensor<float> line = lineQ.AllocTensor<float>();
        const uint64_t off = ((static_cast<uint64_t>(n) * p.ci + ic) * p.hi + ih) * p.wi;
        AscendC::DataCopyPad(line[GUARD], xGm[off], AscendC::DataCopyExtParams{1, p.wi * 4U, 0, 0, 0},
                             AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        lineQ.EnQue(line);
    }

    __aicore__ inline void Compute(AscendC::LocalTensor<float> &acc, uint32_t icl, uint32_t kh)
    {
        AscendC::LocalTensor<float> line = lineQ.DeQue<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> tbl = tableBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> wl = weightBuf.Get<float>();

        AscendC::Duplicate(line, 0.0f, GUARD);  // guard lanes are untouched by the DMA
        AscendC::PipeBarrier<PIPE_V>();
        const uint32_t wRow = icl * tapsPad + kh * p.kw;
        for (uint32_t j = 0; j < p.kw; ++j) {
            const float coef = wl.GetValue(wRow + j);
            AscendC::Gather(tmp, line, tbl[j * woPad], 0U, woPad);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Axpy(acc, tmp, coef, woPad);
            AscendC::PipeBarrier<PIPE_V>();
        }
        lineQ.FreeTensor(line);
    }

    __aicore__ inline void FlushRow(uint32_t r)
    {
        AscendC::LocalTensor<float> acc = rowQ.DeQue<float>();
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(r) * p.wo], acc,
                             AscendC::DataCopyExtParams{1, p.wo * 4U, 0, 0, 0});
        rowQ.FreeTensor(acc);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, LINE_DEPTH> lineQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> rowQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf, tableBuf, weightBuf;
    AscendC::GlobalTensor<float> xGm, wGm, bGm, yGm;
    PlanarTransposedConvTilingData p;
    uint32_t ciPerG = 0, coPerG = 0, taps = 0, tapsPad = 0, woPad = 0;
    uint32_t rowStart = 0, rowNum = 0;
};

extern "C" __global__ __aicore__ void planar_transposed_conv(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    PlanarTransposedConvKernel kernel;
    kernel.Init(x, weight, bias, y, tilingData);
    kernel.Process();
}
