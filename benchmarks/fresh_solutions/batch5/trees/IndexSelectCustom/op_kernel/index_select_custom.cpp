#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// index_select：把 x 看成 [outer, dimSize, inner]，输出 [outer, indexLen, inner]
class KernelIndexSelect {
public:
    __aicore__ inline KernelIndexSelect() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR y, const IndexSelectCustomTilingData& td)
    {
        outer = td.outer;
        dimSize = td.dimSize;
        inner = td.inner;
        indexLen = td.indexLen;
        mode = td.mode;
        indexTile = td.indexTile;
        copyTile = td.copyTile;

        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < td.taskTail) {
            taskCount = td.taskPerCore + 1;
            taskStart = blockIdx * taskCount;
        } else {
            taskCount = td.taskPerCore;
            taskStart = td.taskTail * (td.taskPerCore + 1) + (blockIdx - td.taskTail) * td.taskPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        indexGm.SetGlobalBuffer((__gm__ int32_t*)index, indexLen);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        if (mode == 0) {
            uint32_t rowAlign = (dimSize + 7) / 8 * 8;
            pipe.InitBuffer(rowQueue, BUFFER_NUM, rowAlign * sizeof(float));
            pipe.InitBuffer(idxQueue, 1, indexTile * sizeof(int32_t));
            pipe.InitBuffer(offsetBuf, indexTile * sizeof(int32_t));
            pipe.InitBuffer(outQueue, BUFFER_NUM, indexTile * sizeof(float));
        } else {
            pipe.InitBuffer(copyQueue, BUFFER_NUM, copyTile * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (mode == 0) {
            ProcessGather();
        } else {
            ProcessSlice();
        }
    }

private:
    // ---------------- mode 0：整行进 UB，用 Gather 按字节偏移取数 ----------------
    __aicore__ inline void BuildOffsets(uint32_t idxOffset, uint32_t len)
    {
        LocalTensor<int32_t> idxLocal = idxQueue.AllocTensor<int32_t>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(int32_t)), 0, 0, 0};
        DataCopyPadExtParams<int32_t> padParams{false, 0, 0, 0};
        DataCopyPad(idxLocal, indexGm[idxOffset], params, padParams);
        idxQueue.EnQue(idxLocal);
        idxLocal = idxQueue.DeQue<int32_t>();

        // Gather 需要的是相对源 tensor 起始地址的字节偏移
        LocalTensor<int32_t> offs = offsetBuf.Get<int32_t>();
        Muls(offs, idxLocal, static_cast<int32_t>(sizeof(float)), len);
        idxQueue.FreeTensor(idxLocal);
    }

    __aicore__ inline void ProcessGather()
    {
        uint32_t chunkNum = (indexLen + indexTile - 1) / indexTile;
        if (chunkNum == 1) {
            // 只有一块 index 时偏移表只需算一次，所有行复用
            BuildOffsets(0, indexLen);
        }
        LocalTensor<uint32_t> offs = offsetBuf.Get<int32_t>().ReinterpretCast<uint32_t>();

        for (uint32_t t = 0; t < taskCount; ++t) {
            uint32_t row = taskStart + t;
            LocalTensor<float> rowLocal = rowQueue.AllocTensor<float>();
            DataCopyExtParams params{1, static_cast<uint32_t>(dimSize * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
            DataCopyPad(rowLocal, xGm[static_cast<uint64_t>(row) * dimSize], params, padParams);
            rowQueue.EnQue(rowLocal);
            rowLocal = rowQueue.DeQue<float>();

            for (uint32_t c = 0; c < chunkNum; ++c) {
                uint32_t idxOffset = c * indexTile;
                uint32_t len = (c == chunkNum - 1) ? (indexLen - idxOffset) : indexTile;
                if (chunkNum > 1) {
                    BuildOffsets(idxOffset, len);
                }
                LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
                Gather(outLocal, rowLocal, offs, static_cast<uint32_t>(0), len);
                outQueue.EnQue(outLocal);

                outLocal = outQueue.DeQue<float>();
                DataCopyExtParams outParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                DataCopyPad(yGm[static_cast<uint64_t>(row) * indexLen + idxOffset], outLocal, outParams);
                outQueue.FreeTensor(outLocal);
            }
            rowQueue.FreeTensor(rowLocal);
        }
    }

    // ---------------- mode 1：每个 (o, i) 拷贝一段长度为 inner 的连续数据 ----------------
    __aicore__ inline void ProcessSlice()
    {
        for (uint32_t t = 0; t < taskCount; ++t) {
            uint32_t task = taskStart + t;
            uint32_t o = task / indexLen;
            uint32_t i = task % indexLen;
            int32_t sel = indexGm.GetValue(i);
            uint64_t srcBase = (static_cast<uint64_t>(o) * dimSize + static_cast<uint32_t>(sel)) * inner;
            uint64_t dstBase = (static_cast<uint64_t>(o) * indexLen + i) * inner;

            for (uint32_t off = 0; off < inner; off += copyTile) {
                uint32_t len = (inner - off) < copyTile ? (inner - off) : copyTile;
                DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};

                LocalTensor<float> buf = copyQueue.AllocTensor<float>();
                DataCopyPad(buf, xGm[srcBase + off], params, padParams);
                copyQueue.EnQue(buf);
                buf = copyQueue.DeQue<float>();
                DataCopyPad(yGm[dstBase + off], buf, params);
                copyQueue.FreeTensor(buf);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQueue;
    TQue<QuePosition::VECIN, 1> idxQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> copyQueue;
    TBuf<QuePosition::VECCALC> offsetBuf;
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> indexGm;

    uint32_t outer = 0, dimSize = 0, inner = 0, indexLen = 0;
    uint32_t mode = 0, indexTile = 0, copyTile = 0;
    uint32_t taskStart = 0, taskCount = 0;
};

extern "C" __global__ __aicore__ void index_select_custom(GM_ADDR x, GM_ADDR index, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelIndexSelect op;
    op.Init(x, index, y, tilingData);
    op.Process();
}
