#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ELEMS_PER_BLOCK = 32 / sizeof(float);

// Pure data movement: every output plane (n, co) is copied from input plane
// (n, ci) with co = j * groups + g and ci = g * cpg + j. A bound VECIN/VECOUT
// queue lets MTE2 and MTE3 work on the same UB tile without a vector pass.
class KernelChannelShuffle {
public:
    __aicore__ inline KernelChannelShuffle() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ShufflenetUnitCustomTilingData &td)
    {
        channels = td.channels;
        groups = td.groups;
        cpg = td.chPerGroup;
        planeSize = td.planeSize;
        tileLen = td.tileLen;

        uint32_t id = GetBlockIdx();
        if (id < td.extraPlanes) {
            planeCount = td.planesPerCore + 1;
            planeBegin = id * planeCount;
        } else {
            planeCount = td.planesPerCore;
            planeBegin = td.extraPlanes * (td.planesPerCore + 1) + (id - td.extraPlanes) * td.planesPerCore;
        }

        uint64_t total = static_cast<uint64_t>(td.totalPlanes) * planeSize;
        xGm.SetGlobalBuffer((__gm__ float *)x, total);
        yGm.SetGlobalBuffer((__gm__ float *)y, total);

        uint32_t alignedTile = (tileLen + ELEMS_PER_BLOCK - 1) / ELEMS_PER_BLOCK * ELEMS_PER_BLOCK;
        pipe.InitBuffer(moveQueue, BUFFER_NUM, alignedTile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCount; ++p) {
            uint32_t dstPlane = planeBegin + p;        // output plane index n * C + co
            uint32_t n = dstPlane / channels;
            uint32_t co = dstPlane % channels;
            uint32_t j = co / groups;                  // position inside the group
            uint32_t g = co % groups;                  // source group
            uint32_t ci = g * cpg + j;
            uint64_t srcBase = (static_cast<uint64_t>(n) * channels + ci) * planeSize;
            uint64_t dstBase = static_cast<uint64_t>(dstPlane) * planeSize;
            CopyPlane(srcBase, dstBase);
        }
    }

private:
    __aicore__ inline void CopyPlane(uint64_t srcBase, uint64_t dstBase)
    {
        for (uint32_t off = 0; off < planeSize; off += tileLen) {
            uint32_t len = (off + tileLen <= planeSize) ? tileLen : (planeSize - off);
            LocalTensor<float> buf = moveQueue.AllocTensor<float>();
            if (len % ELEMS_PER_BLOCK == 0) {
                DataCopy(buf, xGm[srcBase + off], len);
            } else {
                DataCopyExtParams in{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
                DataCopyPad(buf, xGm[srcBase + off], in, padParams);
            }
            moveQueue.EnQue(buf);

            buf = moveQueue.DeQue<float>();
            if (len % ELEMS_PER_BLOCK == 0) {
                DataCopy(yGm[dstBase + off], buf, len);
            } else {
                DataCopyExtParams out{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                DataCopyPad(yGm[dstBase + off], buf, out);
            }
            moveQueue.FreeTensor(buf);
        }
    }

private:
    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, BUFFER_NUM> moveQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t channels = 0;
    uint32_t groups = 1;
    uint32_t cpg = 0;
    uint32_t planeSize = 0;
    uint32_t tileLen = 0;
    uint32_t planeBegin = 0;
    uint32_t planeCount = 0;
};

extern "C" __global__ __aicore__ void shufflenet_unit_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelChannelShuffle op;
    op.Init(x, y, tilingData);
    op.Process();
}
