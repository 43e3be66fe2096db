/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Catlass-style grouped matmul with a bias epilogue, as used for MoE experts:
 * for every group g, C[rows of g] = A[rows of g] * B[g] + bias[g]. groupList
 * holds the cumulative row count of each group (int64). The cube core writes
 * each float tile to its workspace slot; its two vector cores add the bias,
 * cast to half and store their half of the rows.
 */
#include <cstdio>
#include "acl/acl.h"
#include "../include/catlass_lite.hpp"

using CatlassLite::CeilDiv;
using CatlassLite::RoundUp;

constexpr uint32_t TILE_M = 128;
constexpr uint32_t TILE_N = 128;
constexpr uint32_t TILE_K = 64;
constexpr uint16_t FLAG_TILE_READY = 4;
constexpr uint16_t FLAG_SLOT_FREE = 5;

// Same walk over (group, m tile, n tile) on cube and vector cores, so both agree on the tile order.
struct GroupTileIterator {
    AscendC::GlobalTensor<int64_t> groupList;
    uint32_t groupCount = 0, n = 0, core = 0, coreNum = 1;
    uint32_t group = 0, tileInGroup = 0, counter = 0;
    uint32_t rowStart = 0, rows = 0, mIdx = 0, nIdx = 0;

    CATLASS_DEVICE bool Next()
    {
        const uint32_t nTiles = CeilDiv(n, TILE_N);
        while (group < groupCount) {
            rowStart = group == 0 ? 0 : static_cast<uint32_t>(groupList.GetValue(group - 1));
            const uint32_t groupRows = static_cast<uint32_t>(groupList.GetValue(group)) - rowStart;
            const uint32_t tiles = CeilDiv(groupRows, TILE_M) * nTiles;
            while (tileInGroup < tiles) {
                const uint32_t t = tileInGroup++;
                if (counter++ % coreNum == core) {
                    mIdx = t / nTiles;
                    nIdx = t % nTiles;
                    rows = groupRows - mIdx * TILE_M < TILE_M ? groupRows - mIdx * TILE_M : TILE_M;
                    return true;
                }
            }
            ++group;
            tileInGroup = 0;
        }
        return false;
    }
    CATLASS_DEVICE uint32_t RowOffset() const { return rowStart + mIdx * TILE_M; }
    CATLASS_DEVICE uint32_t ColOffset() const { return nIdx * TILE_N; }
    CATLASS_DEVICE uint32_t Cols() const { return n - ColOffset() < TILE_N ? n - ColOffset() : TILE_N; }
};

template <class Element>
CATLASS_DEVICE void CubeTile(AscendC::TPipe &pipe, const AscendC::GlobalTensor<Element> &a,
                             const AscendC::GlobalTensor<Element> &b, const AscendC::GlobalTensor<float> &out,
                             uint32_t m, uint32_t n, uint32_t k, uint32_t ldb)
{
    AscendC::TQue<AscendC::TPosition::A1, 1> qA1;
    AscendC::TQue<AscendC::TPosition::B1, 1> qB1;
    AscendC::TQue<AscendC::TPosition::A2, 1> qA2;
    AscendC::TQue<AscendC::TPosition::B2, 1> qB2;
    AscendC::TQue<AscendC::TPosition::CO1, 1> qC;
    pipe.InitBuffer(qA1, 1, TILE_M * TILE_K * sizeof(Element));
    pipe.InitBuffer(qB1, 1, TILE_K * TILE_N * sizeof(Element));
    pipe.InitBuffer(qA2, 1, TILE_M * TILE_K * sizeof(Element));
    pipe.InitBuffer(qB2, 1, TILE_K * TILE_N * sizeof(Element));
    pipe.InitBuffer(qC, 1, TILE_M * TILE_N * sizeof(float));
    const uint32_t mRound = RoundUp(m, 16U);
    AscendC::LocalTensor<float> c = qC.AllocTensor<float>();
    for (uint32_t k0 = 0; k0 < k; k0 += TILE_K) {
        const uint32_t kStep = k - k0 < TILE_K ? k - k0 : TILE_K;
        AscendC::LocalTensor<Element> a1 = qA1.AllocTensor<Element>();
        AscendC::LocalTensor<Element> b1 = qB1.AllocTensor<Element>();
        AscendC::DataCopy(a1, a[k0], AscendC::Nd2NzParams{1, static_cast<uint16_t>(m), static_cast<uint16_t>(kStep), 0,
                                                          static_cast<uint16_t>(k), static_cast<uint16_t>(mRound), 1, 0});
        AscendC::DataCopy(b1, b[k0 * ldb], AscendC::Nd2NzParams{1, static_cast<uint16_t>(kStep), static_cast<uint16_t>(n),
                                                                0, static_cast<uint16_t>(ldb),
                                                                static_cast<uint16_t>(RoundUp(kStep, 16U)), 1, 0});
        qA1.EnQue(a1);
        qB1.EnQue(b1);
        a1 = qA1.DeQue<Element>();
        b1 = qB1.DeQue<Element>();
        AscendC::LocalTensor<Element> a2 = qA2.AllocTensor<Element>();
        AscendC::LocalTensor<Element> b2 = qB2.AllocTensor<Element>();
        for (uint32_t i = 0; i < mRound / 16; ++i) {
            AscendC::LoadData(a2[i * 16 * RoundUp(kStep, 16U)], a1,
                              AscendC::LoadData2DParams{static_cast<uint16_t>(i), static_cast<uint8_t>(CeilDiv(kStep, 16U)),
                                                        static_cast<uint16_t>(mRound / 16), 0, 0, false, 0});
        }
        AscendC::LoadData(b2, b1, AscendC::LoadData2DParams{0, static_cast<uint8_t>(CeilDiv(kStep, 16U) * CeilDiv(n, 16U)),
                                                            1, 0, 0, true, 0});
        qA1.FreeTensor(a1);
        qB1.FreeTensor(b1);
        qA2.EnQue(a2);
        qB2.EnQue(b2);
        a2 = qA2.DeQue<Element>();
        b2 = qB2.DeQue<Element>();
        AscendC::Mmad(c, a2, b2, AscendC::MmadParams{static_cast<uint16_t>(m), static_cast<uint16_t>(n),
                                                     static_cast<uint16_t>(kStep), 0, false, k0 == 0});
        qA2.FreeTensor(a2);
        qB2.FreeTensor(b2);
    }
    qC.EnQue(c);
    c = qC.DeQue<float>();
    AscendC::FixpipeParamsV220 fp{static_cast<uint16_t>(n), static_cast<uint16_t>(m), static_cast<uint16_t>(mRound),
                                  TILE_N, false};
    AscendC::Fixpipe(out, c, fp);
    qC.FreeTensor(c);
    pipe.Reset();
}

CATLASS_DEVICE void VectorEpilogue(AscendC::TPipe &pipe, const AscendC::GlobalTensor<float> &acc,
                                   const AscendC::GlobalTensor<half> &bias, const AscendC::GlobalTensor<half> &c,
                                   uint32_t rows, uint32_t cols, uint32_t ldc)
{
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, biasHalfBuf, biasBuf, outBuf;
    pipe.InitBuffer(accBuf, TILE_M / 2 * TILE_N * sizeof(float));
    pipe.InitBuffer(biasHalfBuf, TILE_N * sizeof(half));
    pipe.InitBuffer(biasBuf, TILE_N * sizeof(float));
    pipe.InitBuffer(outBuf, TILE_M / 2 * TILE_N * sizeof(half));
    AscendC::LocalTensor<float> accLocal = accBuf.Get<float>();
    AscendC::LocalTensor<half> biasHalf = biasHalfBuf.Get<half>();
    AscendC::LocalTensor<float> biasLocal = biasBuf.Get<float>();
    AscendC::LocalTensor<half> outLocal = outBuf.Get<half>();
    AscendC::DataCopy(accLocal, acc, rows * TILE_N);
    AscendC::DataCopyPad(biasHalf, bias, AscendC::DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(half)), 0, 0, 0},
                         AscendC::DataCopyPadExtParams<half>{false, 0, 0, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::Cast(biasLocal, biasHalf, AscendC::RoundMode::CAST_NONE, TILE_N);
    AscendC::PipeBarrier<PIPE_V>();
    for (uint32_t r = 0; r < rows; ++r) {
        AscendC::Add(accLocal[r * TILE_N], accLocal[r * TILE_N], biasLocal, TILE_N);
    }
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Cast(outLocal, accLocal, AscendC::RoundMode::CAST_RINT, rows * TILE_N);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    const uint32_t gapBlocks = (TILE_N * sizeof(half) - RoundUp(static_cast<uint32_t>(cols * sizeof(half)), 32U)) / 32;
    AscendC::DataCopyExtParams out{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(half)), gapBlocks,
                                   static_cast<uint32_t>((ldc - cols) * sizeof(half)), 0};
    AscendC::DataCopyPad(c, outLocal, out);
    pipe.Reset();
}

[[bisheng::core_ratio(1, 2)]] CATLASS_GLOBAL void GroupedMatmulBias(uint32_t groupCount, uint32_t k, uint32_t n,
                                                                    GM_ADDR gmGroupList, GM_ADDR gmA, GM_ADDR gmB,
                                                                    GM_ADDR gmBias, GM_ADDR gmC, GM_ADDR gmWorkspace)
{
    AscendC::TPipe pipe;
    GroupTileIterator it;
    it.groupList.SetGlobalBuffer((__gm__ int64_t *)gmGroupList, groupCount);
    it.groupCount = groupCount;
    it.n = n;
    AscendC::GlobalTensor<float> slot;
    if ASCEND_IS_AIC {
        it.core = AscendC::GetBlockIdx();
        it.coreNum = AscendC::GetBlockNum();
        slot.SetGlobalBuffer((__gm__ float *)gmWorkspace + it.core * TILE_M * TILE_N, TILE_M * TILE_N);
        AscendC::GlobalTensor<half> a, b;
        a.SetGlobalBuffer((__gm__ half *)gmA);
        b.SetGlobalBuffer((__gm__ half *)gmB);
        bool first = true;
        while (it.Next()) {
            if (!first) {
                AscendC::CrossCoreWaitFlag(FLAG_SLOT_FREE); // vector cores are done with the slot
            }
            first = false;
            CubeTile<half>(pipe, a[it.RowOffset() * k], b[it.group * k * n + it.ColOffset()], slot, it.rows, it.Cols(),
                           k, n);
            AscendC::CrossCoreSetFlag<2, PIPE_FIX>(FLAG_TILE_READY);
        }
        if (!first) {
            AscendC::CrossCoreWaitFlag(FLAG_SLOT_FREE);
        }
    }
    if ASCEND_IS_AIV {
        it.core = AscendC::GetBlockIdx() / AscendC::GetTaskRatio(); // the cube core this pair serves
        it.coreNum = AscendC::GetBlockNum();                         // counts cube cores, as on the AIC side
        slot.SetGlobalBuffer((__gm__ float *)gmWorkspace + it.core * TILE_M * TILE_N, TILE_M * TILE_N);
        AscendC::GlobalTensor<half> bias, c;
        bias.SetGlobalBuffer((__gm__ half *)gmBias);
        c.SetGlobalBuffer((__gm__ half *)gmC);
        while (it.Next()) {
            AscendC::CrossCoreWaitFlag(FLAG_TILE_READY);
            const uint32_t upper = CeilDiv(it.rows, 2U);
            const uint32_t myFirst = AscendC::GetSubBlockIdx() == 0 ? 0 : upper;
            const uint32_t myRows = AscendC::GetSubBlockIdx() == 0 ? upper : it.rows - upper;
            if (myRows > 0) {
                VectorEpilogue(pipe, slot[myFirst * TILE_N], bias[it.group * n + it.ColOffset()],
                               c[(it.RowOffset() + myFirst) * n + it.ColOffset()], myRows, it.Cols(), n);
            }
            AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_SLOT_FREE);
        }
    }
}

int main()
{
    // Four experts of 64, 200, 0 and 136 rows; K = 512, N = 384.
    constexpr uint32_t groupCount = 4, k = 512, n = 384, totalRows = 400, aicCoreNum = 20;
    const int64_t groupList[groupCount] = {64, 264, 264, 400};
    const size_t bytes[6] = {sizeof(groupList), totalRows * k * 2UL, groupCount * k * n * 2UL, groupCount * n * 2UL,
                             totalRows * n * 2UL, aicCoreNum * TILE_M * TILE_N * 4UL};
    uint8_t *dev[6] = {}; // groupList, A, B, bias, C, workspace
    aclrtStream stream = nullptr;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
    for (int i = 0; i < 6; ++i) {
        aclrtMalloc((void **)&dev[i], bytes[i], ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemset(dev[i], bytes[i], 0, bytes[i]);
    }
    aclrtMemcpy(dev[0], bytes[0], groupList, bytes[0], ACL_MEMCPY_HOST_TO_DEVICE);
    GroupedMatmulBias<<<aicCoreNum, nullptr, stream>>>(groupCount, k, n, dev[0], dev[1], dev[2], dev[3], dev[4], dev[5]);
    aclrtSynchronizeStream(stream);
    std::printf("GroupedMatmulBias: %u groups done\n", groupCount);
    for (int i = 0; i < 6; ++i) {
        aclrtFree(dev[i]);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
