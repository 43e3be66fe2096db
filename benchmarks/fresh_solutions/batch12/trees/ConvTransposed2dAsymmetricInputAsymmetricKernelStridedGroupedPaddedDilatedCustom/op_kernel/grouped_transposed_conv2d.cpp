/*
 * GroupedTransposedConv2d kernel (fp32, NCHW, weight [Ci, Co/groups, Kh, Kw]).
 *
 * Per task (n, co tile, oh):
 *   acc[co][:] = bias
 *   for kh with (oh + pH - kh*dH) % sH == 0 and ih in range:
 *     for ci in the group:
 *       load x[n, ci, ih, :]
 *       for kw: tap = Gather(line, colTable[kw])   // tap[ow] = x[iw(ow,kw)] or 0
 *               acc[co] += w[ci, co, kh, kw] * tap  for every co of the tile
 * colTable is independent of the task, so it is built once per core.
 * The accumulator queue is double buffered so the store of one row overlaps the next row.
 */
#include "kernel_operator.h"

using namespace AscendC;

class GroupedTransposedConv2dKernel {
public:
    __aicore__ inline GroupedTransposedConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const GroupedTransposedConv2dTilingData &td)
    {
        t_ = td;
        coTiles_ = td.Co / td.coTile;
        begin_ = GetBlockIdx() * td.taskPerCore;
        end_ = begin_ + td.taskPerCore;
        end_ = end_ > td.taskNum ? td.taskNum : end_;

        x_.SetGlobalBuffer((__gm__ float *)x);
        w_.SetGlobalBuffer((__gm__ float *)w);
        y_.SetGlobalBuffer((__gm__ float *)y);
        if (td.biasFlag) {
            b_.SetGlobalBuffer((__gm__ float *)b);
        }

        pipe_.InitBuffer(qLine_, 2, (td.WiA + 8) * sizeof(float));
        pipe_.InitBuffer(qAcc_, 2, td.coTile * td.WoA * sizeof(float));
        pipe_.InitBuffer(tap_, td.WoA * sizeof(float));
        pipe_.InitBuffer(table_, td.Kw * td.WoA * sizeof(uint32_t));
        BuildTable();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = begin_; task < end_; ++task) {
            uint32_t oh = task % t_.Ho;
            uint32_t q = task / t_.Ho;
            uint32_t tileIdx = q % coTiles_;
            uint32_t n = q / coTiles_;
            RunTask(n, tileIdx * t_.coTile, oh);
        }
    }

private:
    __aicore__ inline void BuildTable()
    {
        LocalTensor<uint32_t> tbl = table_.Get<uint32_t>();
        const uint32_t zeroByte = t_.WiA * sizeof(float);
        for (uint32_t kw = 0; kw < t_.Kw; ++kw) {
            for (uint32_t ow = 0; ow < t_.WoA; ++ow) {
                int32_t num = static_cast<int32_t>(ow + t_.pW) - static_cast<int32_t>(kw * t_.dW);
                uint32_t byteOff = zeroByte;
                if (ow < t_.Wo && num >= 0 && (num % static_cast<int32_t>(t_.sW)) == 0) {
                    uint32_t iw = static_cast<uint32_t>(num) / t_.sW;
                    if (iw < t_.Wi) {
                        byteOff = iw * sizeof(float);
                    }
                }
                tbl.SetValue(kw * t_.WoA + ow, byteOff);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void RunTask(uint32_t n, uint32_t co0, uint32_t oh)
    {
        const uint32_t grp = co0 / t_.coPerG;
        const uint32_t coLocal0 = co0 % t_.coPerG;
        const uint32_t kArea = t_.Kh * t_.Kw;

        LocalTensor<float> acc = qAcc_.AllocTensor<float>();
        for (uint32_t c = 0; c < t_.coTile; ++c) {
            Duplicate(acc[c * t_.WoA], t_.biasFlag ? b_.GetValue(co0 + c) : 0.0f, t_.WoA);
        }
        LocalTensor<float> tap = tap_.Get<float>();
        LocalTensor<uint32_t> tbl = table_.Get<uint32_t>();

        for (uint32_t kh = 0; kh < t_.Kh; ++kh) {
            int32_t num = static_cast<int32_t>(oh + t_.pH) - static_cast<int32_t>(kh * t_.dH);
            if (num < 0 || (num % static_cast<int32_t>(t_.sH)) != 0) {
                continue;
            }
            uint32_t ih = static_cast<uint32_t>(num) / t_.sH;
            if (ih >= t_.Hi) {
                continue;
            }
            for (uint32_t cl = 0; cl < t_.ciPerG; ++cl) {
                uint32_t ci = grp * t_.ciPerG + cl;
                FetchLine(n, ci, ih);
                LocalTensor<float> line = qLine_.DeQue<float>();
                // &w[ci, coLocal0, kh, 0]
                uint64_t wRow = (static_cast<uint64_t>(ci) * t_.coPerG + coLocal0) * kArea + kh * t_.Kw;
                for (uint32_t kw = 0; kw < t_.Kw; ++kw) {
                    Gather(tap, line, tbl[kw * t_.WoA], 0, t_.WoA);
                    PipeBarrier<PIPE_V>();
                    for (uint32_t c = 0; c < t_.coTile; ++c) {
                        Axpy(acc[c * t_.WoA], tap, w_.GetValue(wRow + c * kArea + kw), t_.WoA);
                    }
                    PipeBarrier<PIPE_V>();
                }
                qLine_.FreeTensor(line);
            }
        }
        qAcc_.EnQue(acc);

        // write coTile rows, each to its own channel plane
        LocalTensor<float> res = qAcc_.DeQue<float>();
        uint64_t dst = ((static_cast<uint64_t>(n) * t_.Co + co0) * t_.Ho + oh) * t_.Wo;
        DataCopyExtParams st;
        st.blockCount = static_cast<uint16_t>(t_.coTile);
        st.blockLen = t_.Wo * sizeof(float);
        st.srcStride = 0;
        st.dstStride = (t_.Ho - 1) * t_.Wo * sizeof(float);
        st.rsv = 0;
        DataCopyPad(y_[dst], res, st);
        qAcc_.FreeTensor(res);
    }

    __aicore__ inline void FetchLine(uint32_t n, uint32_t ci, uint32_t ih)
    {
        LocalTensor<float> line = qLine_.AllocTensor<float>();
        Duplicate(line[t_.WiA], 0.0f, 8);   // zero slot targeted by empty taps
        uint64_t src = ((static_cast<uint64_t>(n) * t_.Ci + ci) * t_.Hi + ih) * t_.Wi;
        DataCopyExtParams ld{1, static_cast<uint32_t>(t_.Wi * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pd{true, 0, static_cast<uint8_t>(t_.WiA - t_.Wi), 0.0f};
        DataCopyPad(line, x_[src], ld, pd);
        qLine_.EnQue(line);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> qLine_;
    TQue<QuePosition::VECOUT, 2> qAcc_;
    TBuf<TPosition::VECCALC> tap_, table_;
    GlobalTensor<float> x_, w_, b_, y_;
    GroupedTransposedConv2dTilingData t_;
    uint32_t coTiles_, begin_, end_;
};

extern "C" __global__ __aicore__ void grouped_transposed_conv2d(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GroupedTransposedConv2dKernel kernel;
    kernel.Init(x, weight, bias, y, tilingData);
    kernel.Process();
}
