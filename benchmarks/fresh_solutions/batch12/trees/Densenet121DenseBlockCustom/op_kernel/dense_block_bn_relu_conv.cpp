/*
 * DenseBlockBnReluConv kernel (fp32, NCHW).
 *
 *   y[:, 0:C0]                     = x
 *   for l in 0..L-1:
 *       cin = C0 + l*G
 *       y[:, cin:cin+G] = conv3x3_pad1( relu(scale_l * y[:, 0:cin] + shift_l) , W_l )
 *
 * Because y doubles as the growing concatenation, each layer reads the channels written by the
 * earlier ones; all cores meet at SyncAll() between layers. Inside a layer a core handles
 * output lines (n, oh): every contributing input line is normalised once, three column-shifted
 * copies are produced with Gather (the zero border is part of the UB line buffer), and each is
 * folded into the G accumulators with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t LEAD = 8;   // zero lead-in before the line (keeps the data 32B aligned)
constexpr uint32_t KS = 3;
}

class DenseBlockKernel {
public:
    __aicore__ inline DenseBlockKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR w, GM_ADDR y,
                                const DenseBlockBnReluConvTilingData &td)
    {
        N = td.batch; C0 = td.inChannels; CT = td.outChannels;
        H = td.height; W = td.width; WA = td.widthAlign;
        L = td.numLayers; G = td.growth; GB = td.gBlock;
        copyTile = td.copyTile; cores = td.coreNum;
        me = GetBlockIdx();

        xGm.SetGlobalBuffer((__gm__ float *)x);
        scaleGm.SetGlobalBuffer((__gm__ float *)scale);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        lineLen = LEAD + WA + 8;
        pipe.InitBuffer(lineQ, 2, lineLen * sizeof(float));
        pipe.InitBuffer(accQ, 1, GB * WA * sizeof(float));
        pipe.InitBuffer(tapBuf, KS * WA * sizeof(float));
        pipe.InitBuffer(offBuf, KS * WA * sizeof(uint32_t));
        pipe.InitBuffer(copyQ, 1, copyTile * sizeof(float));

        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < KS; ++kw) {
            for (uint32_t ow = 0; ow < WA; ++ow) {
                // input column ow - 1 + kw lives at LEAD + ow - 1 + kw
                off.SetValue(kw * WA + ow, (LEAD - 1 + kw + ow) * sizeof(float));
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        CopyInput();
        SyncAll();

        uint64_t scaleOff = 0;
        uint64_t wOff = 0;
        for (uint32_t l = 0; l < L; ++l) {
            uint32_t cin = C0 + l * G;
            uint32_t lines = N * H;
            for (uint32_t li = me; li < lines; li += cores) {
                uint32_t n = li / H;
                uint32_t oh = li % H;
                for (uint32_t g0 = 0; g0 < G; g0 += GB) {
                    Layerline(n, oh, cin, g0, scaleOff, wOff);
                }
            }
            scaleOff += cin;
            wOff += static_cast<uint64_t>(G) * cin * KS * KS;
            PipeBarrier<PIPE_ALL>();
            SyncAll();
        }
    }

private:
    // y[n, 0:C0] <- x[n]; each image's slab is contiguous in both tensors
    __aicore__ inline void CopyInput()
    {
        uint64_t slab = static_cast<uint64_t>(C0) * H * W;
        uint32_t chunks = static_cast<uint32_t>((slab + copyTile - 1) / copyTile);
        for (uint32_t item = me; item < N * chunks; item += cores) {
            uint32_t n = item / chunks;
            uint64_t off = static_cast<uint64_t>(item % chunks) * copyTile;
            uint32_t len = static_cast<uint32_t>((slab - off) < copyTile ? (slab - off) : copyTile);
            LocalTensor<float> buf = copyQ.AllocTensor<float>();
            DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
            DataCopyPad(buf, xGm[n * slab + off], cp, pp);
            copyQ.EnQue(buf);
            buf = copyQ.DeQue<float>();
            DataCopyPad(yGm[static_cast<uint64_t>(n) * CT * H * W + off], buf, cp);
            copyQ.FreeTensor(buf);
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Layerline(uint32_t n, uint32_t oh, uint32_t cin, uint32_t g0,
                                     uint64_t scaleOff, uint64_t wOff)
    {
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        Duplicate(acc, 0.0f, GB * WA);
        LocalTensor<float> taps = tapBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();

        for (uint32_t ic = 0; ic < cin; ++ic) {
            float sc = scaleGm.GetValue(scaleOff + ic);
            float sh = shiftGm.GetValue(scaleOff + ic);
            for (uint32_t kh = 0; kh < KS; ++kh) {
                int32_t ih = static_cast<int32_t>(oh) + static_cast<int32_t>(kh) - 1;
                if (ih < 0 || ih >= static_cast<int32_t>(H)) {
                    continue;   // zero padding row
                }
                LocalTensor<float> line = lineQ.AllocTensor<float>();
                Duplicate(line, 0.0f, LEAD);
                Duplicate(line[LEAD + WA], 0.0f, 8);
                uint64_t src = ((static_cast<uint64_t>(n) * CT + ic) * H + ih) * W;
                DataCopyExtParams cp{1, W * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pp{true, 0, static_cast<uint8_t>(WA - W), 0.0f};
                DataCopyPad(line[LEAD], yGm[src], cp, pp);
                lineQ.EnQue(line);
                line = lineQ.DeQue<float>();

                // batch norm (folded) + relu on the real W columns only; borders stay zero
                LocalTensor<float> body = line[LEAD];
                Muls(body, body, sc, W);
                PipeBarrier<PIPE_V>();
                Adds(body, body, sh, W);
                PipeBarrier<PIPE_V>();
                Relu(body, body, W);
                PipeBarrier<PIPE_V>();

                for (uint32_t kw = 0; kw < KS; ++kw) {
                    Gather(taps[kw * WA], line, off[kw * WA], 0, WA);
                }
                PipeBarrier<PIPE_V>();
                lineQ.FreeTensor(line);

                for (uint32_t g = 0; g < GB; ++g) {
                    uint64_t wb = wOff + ((static_cast<uint64_t>(g0 + g) * cin + ic) * KS + kh) * KS;
                    for (uint32_t kw = 0; kw < KS; ++kw) {
                        Axpy(acc[g * WA], taps[kw * WA], wGm.GetValue(wb + kw), WA);
                    }
                }
                PipeBarrier<PIPE_V>();
            }
        }

        accQ.EnQue(acc);
        acc = accQ.DeQue<float>();
        uint64_t dst = ((static_cast<uint64_t>(n) * CT + cin + g0) * H + oh) * W;
        DataCopyExtParams out{static_cast<uint16_t>(GB), W * static_cast<uint32_t>(sizeof(float)), 0,
                              (H - 1) * W * static_cast<uint32_t>(sizeof(float)), 0};
        DataCopyPad(yGm[dst], acc, out);
        accQ.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> lineQ;
    TQue<QuePosition::VECOUT, 1> accQ;
    TQue<QuePosition::VECIN, 1> copyQ;
    TBuf<TPosition::VECCALC> tapBuf, offBuf;
    GlobalTensor<float> xGm, scaleGm, shiftGm, wGm, yGm;
    uint32_t N, C0, CT, H, W, WA, L, G, GB;
    uint32_t copyTile, cores, me, lineLen;
};

extern "C" __global__ __aicore__ void dense_block_bn_relu_conv(GM_ADDR x, GM_ADDR bnScale, GM_ADDR bnShift,
                                                               GM_ADDR weight, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    DenseBlockKernel op;
    op.Init(x, bnScale, bnShift, weight, y, td);
    op.Process();
}
