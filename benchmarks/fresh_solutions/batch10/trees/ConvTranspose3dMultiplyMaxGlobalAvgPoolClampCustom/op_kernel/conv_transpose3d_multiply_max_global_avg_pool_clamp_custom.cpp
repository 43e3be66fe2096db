#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLK = 8;       // floats per 32 B block
constexpr uint32_t REP = 64;      // floats per 256 B repeat
}

// For every (n, c) plane of the ConvTranspose3d output:
//   p   = maxpool3d_k2(x * scale)
//   y   = clamp(mean(p), clampMin, clampMax)
// A core owns a contiguous range of planes, walks them pooled-slice by pooled-slice,
// keeps a running row of column sums and finally reduces it to one scalar per plane.
class KernelMulMaxGapClamp {
public:
    __aicore__ inline KernelMulMaxGapClamp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y,
                                const ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData& td)
    {
        D = td.inD; H = td.inH; W = td.inW;
        PD = td.poolD; PH = td.poolH; PW = td.poolW;
        pitch = td.rowPitch;
        halfPitch = pitch / 2;
        rowsPerPass = td.rowsPerPass;
        scale = td.scale;
        invCount = td.invCount;
        lo = td.clampMin;
        hi = td.clampMax;

        uint32_t bid = GetBlockIdx();
        planeCnt = td.planesPerCore + (bid < td.extraPlanes ? 1 : 0);
        planeBeg = bid * td.planesPerCore + (bid < td.extraPlanes ? bid : td.extraPlanes);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y + planeBeg, planeCnt);

        sliceLen = 2 * rowsPerPass * pitch;
        uint32_t inLen = (2 * sliceLen + REP - 1) / REP * REP;
        uint32_t rowLen = (rowsPerPass * pitch + REP - 1) / REP * REP;
        pipe.InitBuffer(inQue, BUFFER_NUM, inLen * sizeof(float));
        pipe.InitBuffer(hmaxBuf, rowLen * sizeof(float));
        pipe.InitBuffer(evenBuf, rowLen / 2 * sizeof(float));
        pipe.InitBuffer(oddBuf, rowLen / 2 * sizeof(float));
        pipe.InitBuffer(accBuf, halfPitch * sizeof(float));
        pipe.InitBuffer(workBuf, 2 * REP * sizeof(float));
        pipe.InitBuffer(resBuf, td.resCapacity * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> res = resBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();

        for (uint32_t p = 0; p < planeCnt; ++p) {
            uint64_t planeOff = (uint64_t)(planeBeg + p) * D * H * W;
            Duplicate(acc, 0.0f, halfPitch);
            for (uint32_t pd = 0; pd < PD; ++pd) {
                for (uint32_t ph0 = 0; ph0 < PH; ph0 += rowsPerPass) {
                    uint32_t rows = (ph0 + rowsPerPass <= PH) ? rowsPerPass : (PH - ph0);
                    uint64_t off = planeOff + ((uint64_t)(2 * pd) * H + 2 * ph0) * W;
                    LoadSlices(off, rows);
                    PoolAndAccumulate(rows, acc);
                }
            }
            // sum of the valid pooled columns -> work[0]
            ReduceSum(work, acc, work[REP], PW);
            event_t evVS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(evVS);
            WaitFlag<HardEvent::V_S>(evVS);
            float mean = work.GetValue(0) * invCount;
            mean = mean < lo ? lo : mean;
            mean = mean > hi ? hi : mean;
            res.SetValue(p, mean);
            // the next plane's Duplicate must not overwrite acc before the scalar read finished
            event_t evSV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evSV);
            WaitFlag<HardEvent::S_V>(evSV);
        }

        event_t evSM = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(evSM);
        WaitFlag<HardEvent::S_MTE3>(evSM);
        DataCopyExtParams cp{1, static_cast<uint32_t>(planeCnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm, res, cp);
    }

private:
    // two adjacent depth slices, 2*rows input rows each, landed on a pitch-aligned grid
    __aicore__ inline void LoadSlices(uint64_t off, uint32_t rows)
    {
        LocalTensor<float> in = inQue.AllocTensor<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(2 * rows);
        cp.blockLen = W * sizeof(float);
        cp.srcStride = 0;
        cp.dstStride = (pitch - (W + BLK - 1) / BLK * BLK) / BLK;
        cp.rsv = 0;
        DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        DataCopyPad(in, xGm[off], cp, pp);
        DataCopyPad(in[sliceLen], xGm[off + (uint64_t)H * W], cp, pp);
        inQue.EnQue(in);
    }

    __aicore__ inline void PoolAndAccumulate(uint32_t rows, LocalTensor<float>& acc)
    {
        LocalTensor<float> in = inQue.DeQue<float>();
        LocalTensor<float> hmax = hmaxBuf.Get<float>();
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> od = oddBuf.Get<float>();

        uint32_t used = 2 * rows * pitch;
        // scale first: max(s*x) differs from s*max(x) when s < 0
        Muls(in, in, scale, used);
        Muls(in[sliceLen], in[sliceLen], scale, used);
        Max(in, in, in[sliceLen], used);                         // over depth
        for (uint32_t r = 0; r < rows; ++r) {                    // over height
            Max(hmax[r * pitch], in[2 * r * pitch], in[(2 * r + 1) * pitch], pitch);
        }
        uint32_t flat = rows * pitch;
        uint64_t cnt = 0;
        GatherMaskParams gp;
        gp.src0BlockStride = 1;
        gp.repeatTimes = static_cast<uint16_t>((flat + REP - 1) / REP);
        gp.src0RepeatStride = 8;
        gp.src1RepeatStride = 0;
        GatherMask(ev, hmax, 1, false, 0, gp, cnt);             // even columns
        GatherMask(od, hmax, 2, false, 0, gp, cnt);             // odd columns
        Max(ev, ev, od, flat / 2);                               // over width
        for (uint32_t r = 0; r < rows; ++r) {
            Add(acc, acc, ev[r * halfPitch], halfPitch);
        }
        inQue.FreeTensor(in);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TBuf<TPosition::VECCALC> hmaxBuf, evenBuf, oddBuf, accBuf, workBuf, resBuf;
    GlobalTensor<float> xGm, yGm;

    uint32_t D, H, W, PD, PH, PW;
    uint32_t pitch, halfPitch, rowsPerPass, sliceLen;
    uint32_t planeBeg, planeCnt;
    float scale, invCount, lo, hi;
};

extern "C" __global__ __aicore__ void conv_transpose3d_multiply_max_global_avg_pool_clamp_custom(
    GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMulMaxGapClamp op;
    op.Init(x, y, tilingData);
    op.Process();
}
