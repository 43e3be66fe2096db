// SlidingWindowMax1d kernel.
//
// y[r, o] = max_{j < K} xpad[r, o*S + j*D],  xpad = x padded with -inf by P on both sides.
//
// Per tile of outputs the needed input span is staged in UB on top of a -inf
// background, so the implicit padding needs no special casing. Each window tap
// j is then one Gather (fixed offset table o*S, per-tap base address) followed
// by an elementwise Max into the result.
#include "kernel_operator.h"

template <typename T>
struct NegInfBits;
template <>
struct NegInfBits<float> {
    using Raw = uint32_t;
    static constexpr uint32_t value = 0xFF800000U;
};
template <>
struct NegInfBits<half> {
    using Raw = uint16_t;
    static constexpr uint16_t value = 0xFC00U;
};

template <typename T>
class SlidingWindowMax1dKernel {
    using Raw = typename NegInfBits<T>::Raw;
    static constexpr uint32_t ALIGN = 32 / sizeof(T);

public:
    __aicore__ inline SlidingWindowMax1dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SlidingWindowMax1dTilingData &tiling)
    {
        cfg = tiling;
        rowFirst = AscendC::GetBlockIdx() * cfg.rowsPerCore;
        rowLast = rowFirst + cfg.rowsPerCore;
        if (rowLast > cfg.rows) {
            rowLast = cfg.rows;
        }
        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(stage, cfg.stageLen * sizeof(T));
        pipe.InitBuffer(offsets, cfg.outTile * sizeof(uint32_t));
        pipe.InitBuffer(picked, cfg.outTile * sizeof(T));
        pipe.InitBuffer(resultQ, 2, cfg.outTile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (rowFirst >= rowLast) {
            return;
        }
        AscendC::LocalTensor<uint32_t> off = offsets.Get<uint32_t>();
        for (uint32_t o = 0; o < cfg.outTile; ++o) {
            off.SetValue(o, o * cfg.step * static_cast<uint32_t>(sizeof(T)));
        }
        evVM = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_MTE2));
        evMV = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE2_V));
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(evSV);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(evSV);

        for (uint32_t r = rowFirst; r < rowLast; ++r) {
            for (uint32_t o0 = 0; o0 < cfg.outLen; o0 += cfg.outTile) {
                const uint32_t cnt = (cfg.outLen - o0) < cfg.outTile ? (cfg.outLen - o0) : cfg.outTile;
                PoolTile(r, o0, cnt);
                Emit(r, o0, cnt);
            }
        }
    }

private:
    __aicore__ inline void PoolTile(uint32_t r, uint32_t o0, uint32_t cnt)
    {
        AscendC::LocalTensor<T> buf = stage.Get<T>();
        AscendC::LocalTensor<uint32_t> off = offsets.Get<uint32_t>();
        AscendC::LocalTensor<T> tmp = picked.Get<T>();

        // input coordinates covered by this tile (segStart may be negative)
        const int64_t segStart = static_cast<int64_t>(o0) * cfg.step - cfg.pad;
        const int64_t span = static_cast<int64_t>(cnt - 1) * cfg.step +
                             static_cast<int64_t>(cfg.dilation) * (cfg.window - 1) + 1;
        const int64_t loadStart = segStart < 0 ? 0 : segStart;
        int64_t loadEnd = segStart + span;
        if (loadEnd > cfg.inLen) {
            loadEnd = cfg.inLen;
        }
        const uint32_t lead = static_cast<uint32_t>(loadStart - segStart);      // implicit left padding
        const uint32_t place = (lead + ALIGN - 1) / ALIGN * ALIGN;              // aligned UB landing slot
        const uint32_t shift = place - lead;                                    // where segStart lives in UB

        // -inf background, then the real samples on top
        AscendC::Duplicate(buf.template ReinterpretCast<Raw>(), static_cast<Raw>(NegInfBits<T>::value),
                           cfg.stageLen);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(evVM);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(evVM);
        if (loadEnd > loadStart) {
            const uint64_t src = static_cast<uint64_t>(r) * cfg.inLen + static_cast<uint64_t>(loadStart);
            AscendC::DataCopyPad(buf[place], xGm[src],
                                 AscendC::DataCopyExtParams{1, static_cast<uint32_t>((loadEnd - loadStart) * sizeof(T)),
                                                            0, 0, 0},
                                 AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
        }
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(evMV);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(evMV);

        AscendC::LocalTensor<T> res = resultQ.AllocTensor<T>();
        const uint32_t calc = (cnt + ALIGN - 1) / ALIGN * ALIGN;
        for (uint32_t j = 0; j < cfg.window; ++j) {
            const uint32_t base = (shift + j * cfg.dilation) * static_cast<uint32_t>(sizeof(T));
            if (j == 0) {
                AscendC::Gather(res, buf, off, base, calc);
            } else {
                AscendC::Gather(tmp, buf, off, base, calc);
                AscendC::PipeBarrier<PIPE_V>();
                AscendC::Max(res, res, tmp, calc);
            }
            AscendC::PipeBarrier<PIPE_V>();
        }
        resultQ.EnQue(res);
    }

    __aicore__ inline void Emit(uint32_t r, uint32_t o0, uint32_t cnt)
    {
        AscendC::LocalTensor<T> res = resultQ.DeQue<T>();
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(r) * cfg.outLen + o0], res,
                             AscendC::DataCopyExtParams{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0});
        resultQ.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> stage, offsets, picked;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> resultQ;
    AscendC::GlobalTensor<T> xGm, yGm;
    SlidingWindowMax1dTilingData cfg;
    uint32_t rowFirst = 0, rowLast = 0;
    event_t evVM, evMV;
};

extern "C" __global__ __aicore__ void sliding_window_max1d(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        SlidingWindowMax1dKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        SlidingWindowMax1dKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
