#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_K = 16;

// Depthwise conv, stride 1, no padding.
// One tile = `rows` output rows of one (n, c) plane.  For every tap (kh, kw) the
// shifted input window is DMA'd straight from GM (row-strided, column offset kw),
// so all vector math runs on 32B-aligned UB rows: acc += w[c,kh,kw] * window.
class KernelDwConv2d {
public:
    __aicore__ inline KernelDwConv2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvDepthwise2dAsymmetricInputSquareKernelCustomTilingData& t)
    {
        C = t.channels; H = t.inH; W = t.inW;
        OH = t.outH; OW = t.outW; OWA = t.outWAlign;
        K = t.kSize; rows = t.rowsPerTile;
        tilesPerPlane = t.tilesPerPlane;

        tileBegin = GetBlockIdx() * t.tilesPerCore;
        tileEnd = tileBegin + t.tilesPerCore;
        if (tileEnd > t.totalTiles) tileEnd = t.totalTiles;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)t.batch * C * H * W);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)C * K * K);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)t.batch * C * OH * OW);

        pipe.InitBuffer(winQ, BUFFER_NUM, rows * OWA * sizeof(float));
        pipe.InitBuffer(accQ, BUFFER_NUM, rows * OWA * sizeof(float));
        curChannel = 0xFFFFFFFF;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = tileBegin; t < tileEnd; ++t) {
            uint32_t plane = t / tilesPerPlane;
            uint32_t oh0 = (t % tilesPerPlane) * rows;
            uint32_t nr = (oh0 + rows > OH) ? (OH - oh0) : rows;
            LoadWeights(plane % C);
            ComputeTile(plane, oh0, nr);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t c)
    {
        if (c == curChannel) return;
        curChannel = c;
        for (uint32_t i = 0; i < K * K; ++i) {
            wReg[i] = wGm.GetValue((uint64_t)c * K * K + i);
        }
    }

    __aicore__ inline void ComputeTile(uint32_t plane, uint32_t oh0, uint32_t nr)
    {
        uint64_t inBase = (uint64_t)plane * H * W;
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        uint32_t cnt = nr * OWA;

        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(nr);
        cp.blockLen = OW * sizeof(float);
        cp.srcStride = (W - OW) * sizeof(float);
        cp.dstStride = 0;
        cp.rsv = 0;
        DataCopyPadExtParams<float> padp{false, 0, 0, 0.0f};

        for (uint32_t kh = 0; kh < K; ++kh) {
            for (uint32_t kw = 0; kw < K; ++kw) {
                LocalTensor<float> win = winQ.AllocTensor<float>();
                DataCopyPad(win, xGm[inBase + (uint64_t)(oh0 + kh) * W + kw], cp, padp);
                winQ.EnQue(win);
                win = winQ.DeQue<float>();
                float wv = wReg[kh * K + kw];
                if (kh == 0 && kw == 0) {
                    Muls(acc, win, wv, cnt);
                } else {
                    Axpy(acc, win, wv, cnt);
                }
                winQ.FreeTensor(win);
            }
        }
        accQ.EnQue(acc);

        acc = accQ.DeQue<float>();
        DataCopyExtParams op;
        op.blockCount = static_cast<uint16_t>(nr);
        op.blockLen = OW * sizeof(float);
        op.srcStride = 0;
        op.dstStride = 0;
        op.rsv = 0;
        DataCopyPad(yGm[(uint64_t)plane * OH * OW + (uint64_t)oh0 * OW], acc, op);
        accQ.FreeTensor(acc);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> winQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> accQ;
    GlobalTensor<float> xGm, wGm, yGm;
    float wReg[MAX_K * MAX_K];
    uint32_t C, H, W, OH, OW, OWA, K, rows, tilesPerPlane;
    uint32_t tileBegin, tileEnd, curChannel;
};

extern "C" __global__ __aicore__ void conv_depthwise_2d_asymmetric_input_square_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelDwConv2d op;
    op.Init(x, weight, y, td);
    op.Process();
}
