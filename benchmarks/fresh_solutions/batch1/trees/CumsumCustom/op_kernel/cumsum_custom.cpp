#include "kernel_operator.h"

/*
 * Inclusive prefix sum along the last dimension.
 *
 * A scan along contiguous memory cannot be expressed with plain vector ops
 * (shifts by 1..7 floats break the 32B alignment rule). Instead a block of
 * groupRows rows x tileCols columns is loaded and transposed in UB with
 * Gather, so that each original column becomes a contiguous groupRows-wide
 * vector. The scan is then a chain of vector Adds (one per column), all rows
 * of the block in parallel. A second Gather transposes the result back.
 * The last column of a tile is kept as carry for the next tile of the same rows.
 */
constexpr int32_t BUFFER_NUM = 2;

class KernelCumsum {
public:
    __aicore__ inline KernelCumsum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CumsumCustomTilingData& t)
    {
        rows = t.rows;
        cols = t.cols;
        gRows = t.groupRows;
        tCols = t.tileCols;
        colTiles = t.colTiles;
        uint32_t bid = AscendC::GetBlockIdx();
        groupNum = t.groupsPerCore + (bid < t.groupsRemain ? 1 : 0);
        groupBegin = bid * t.groupsPerCore + (bid < t.groupsRemain ? bid : t.groupsRemain);

        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(rows) * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(rows) * cols);

        uint32_t tileBytes = gRows * tCols * sizeof(float);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(transBuf, tileBytes);
        pipe.InitBuffer(fwdIdxBuf, gRows * tCols * sizeof(uint32_t));
        pipe.InitBuffer(bwdIdxBuf, gRows * tCols * sizeof(uint32_t));
        pipe.InitBuffer(carryBuf, gRows * sizeof(float));

        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> carry = carryBuf.Get<float>();
        for (uint32_t g = 0; g < groupNum; ++g) {
            uint32_t row0 = (groupBegin + g) * gRows;
            uint32_t validRows = (rows - row0) < gRows ? (rows - row0) : gRows;
            AscendC::Duplicate(carry, 0.0f, gRows);
            for (uint32_t ct = 0; ct < colTiles; ++ct) {
                uint32_t col0 = ct * tCols;
                uint32_t validCols = (cols - col0) < tCols ? (cols - col0) : tCols;
                CopyIn(row0, validRows, col0, validCols);
                Compute(carry, validCols);
                CopyOut(row0, validRows, col0, validCols);
            }
        }
    }

private:
    // byte offsets for the two transposes, built once with scalar code
    __aicore__ inline void BuildOffsets()
    {
        AscendC::LocalTensor<uint32_t> fwd = fwdIdxBuf.Get<uint32_t>();
        AscendC::LocalTensor<uint32_t> bwd = bwdIdxBuf.Get<uint32_t>();
        for (uint32_t r = 0; r < gRows; ++r) {
            for (uint32_t c = 0; c < tCols; ++c) {
                // trans[c][r] <- in[r][c]
                fwd.SetValue(c * gRows + r, (r * tCols + c) * sizeof(float));
                // out[r][c] <- trans[c][r]
                bwd.SetValue(r * tCols + c, (c * gRows + r) * sizeof(float));
            }
        }
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev);
    }

    __aicore__ inline void CopyIn(uint32_t row0, uint32_t validRows, uint32_t col0, uint32_t validCols)
    {
        AscendC::LocalTensor<float> inLocal = inQueue.AllocTensor<float>();
        uint32_t alignedCols = (validCols + 7) / 8 * 8;
        AscendC::DataCopyExtParams params{static_cast<uint16_t>(validRows),
                                          static_cast<uint32_t>(validCols * sizeof(float)),
                                          static_cast<uint32_t>((cols - validCols) * sizeof(float)),
                                          static_cast<uint32_t>((tCols - alignedCols) / 8), 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(inLocal, xGm[static_cast<uint64_t>(row0) * cols + col0], params, padParams);
        inQueue.EnQue(inLocal);
    }

    __aicore__ inline void Compute(AscendC::LocalTensor<float>& carry, uint32_t validCols)
    {
        AscendC::LocalTensor<float> inLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> trans = transBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> fwd = fwdIdxBuf.Get<uint32_t>();
        AscendC::LocalTensor<uint32_t> bwd = bwdIdxBuf.Get<uint32_t>();
        uint32_t total = gRows * tCols;

        AscendC::Gather(trans, inLocal, fwd, 0, total);
        inQueue.FreeTensor(inLocal);

        // column 0 continues from the previous tile
        AscendC::Add(trans, trans, carry, gRows);
        for (uint32_t c = 1; c < validCols; ++c) {
            AscendC::Add(trans[c * gRows], trans[c * gRows], trans[(c - 1) * gRows], gRows);
        }
        AscendC::Adds(carry, trans[(validCols - 1) * gRows], 0.0f, gRows);

        AscendC::Gather(outLocal, trans, bwd, 0, total);
        outQueue.EnQue(outLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row0, uint32_t validRows, uint32_t col0, uint32_t validCols)
    {
        AscendC::LocalTensor<float> outLocal = outQueue.DeQue<float>();
        uint32_t alignedCols = (validCols + 7) / 8 * 8;
        AscendC::DataCopyExtParams params{static_cast<uint16_t>(validRows),
                                          static_cast<uint32_t>(validCols * sizeof(float)),
                                          static_cast<uint32_t>((tCols - alignedCols) / 8),
                                          static_cast<uint32_t>((cols - validCols) * sizeof(float)), 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(row0) * cols + col0], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> transBuf;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> fwdIdxBuf;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> bwdIdxBuf;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> carryBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t rows, cols, gRows, tCols, colTiles;
    uint32_t groupNum, groupBegin;
};

extern "C" __global__ __aicore__ void cumsum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelCumsum op;
    op.Init(x, y, tiling_data);
    op.Process();
}
