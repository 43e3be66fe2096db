/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Catlass-style basic matmul C = A * B (row-major half in, half out, float
 * accumulation) on the cube cores only. Output tiles of L1M x L1N are handed
 * out round-robin with a small swizzle; inside a tile the K loop double-buffers
 * L1 (ping-pong) and steps L0 by L0K, with explicit pipe events between stages.
 */
#define ASCENDC_CUBE_ONLY
#include <cstdio>
#include <cstdlib>
#include "acl/acl.h"
#include "../include/catlass_lite.hpp"

using CatlassLite::CeilDiv;
using CatlassLite::RoundUp;

template <class Element, uint32_t L1M, uint32_t L1N, uint32_t L1K, uint32_t L0K>
class BlockMmadPingpong {
public:
    static constexpr uint32_t STAGES = 2;
    static constexpr int32_t EVENT_L0 = 0;
    static constexpr int32_t EVENT_L0C = 0;

    CATLASS_DEVICE explicit BlockMmadPingpong(AscendC::TPipe &pipe)
    {
        pipe.InitBuffer(l1A, STAGES * L1M * L1K * sizeof(Element));
        pipe.InitBuffer(l1B, STAGES * L1K * L1N * sizeof(Element));
        pipe.InitBuffer(l0A, L1M * L0K * sizeof(Element));
        pipe.InitBuffer(l0B, L0K * L1N * sizeof(Element));
        pipe.InitBuffer(l0C, L1M * L1N * sizeof(float));
        for (int32_t s = 0; s < static_cast<int32_t>(STAGES); ++s) {
            AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(s); // both L1 slots start free
        }
        AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_L0);
        AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);
    }

    CATLASS_DEVICE ~BlockMmadPingpong()
    {
        for (int32_t s = 0; s < static_cast<int32_t>(STAGES); ++s) {
            AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(s);
        }
        AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_L0);
        AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);
    }

    // One output tile: m x n (<= L1M x L1N), full K. lda/ldb/ldc are row strides in elements.
    CATLASS_DEVICE void operator()(const AscendC::GlobalTensor<Element> &gA, const AscendC::GlobalTensor<Element> &gB,
                                   const AscendC::GlobalTensor<Element> &gC, uint32_t m, uint32_t n, uint32_t k,
                                   uint32_t lda, uint32_t ldb, uint32_t ldc)
    {
        const uint32_t kTiles = CeilDiv(k, L1K);
        const uint32_t mRound = RoundUp(m, CatlassLite::C0_NUM_PER_FRACTAL);
        const uint32_t nRound = RoundUp(n, CatlassLite::C0_NUM_PER_FRACTAL);
        AscendC::LocalTensor<float> c0 = l0C.template Get<float>();
        LoadStage(gA, gB, 0, m, n, k, lda, ldb);
        AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);
        for (uint32_t kt = 0; kt < kTiles; ++kt) {
            const int32_t stage = static_cast<int32_t>(kt % STAGES);
            if (kt + 1 < kTiles) {
                LoadStage(gA, gB, kt + 1, m, n, k, lda, ldb); // prefetch the next K slab
            }
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(stage);
            AscendC::LocalTensor<Element> a1 = l1A.template Get<Element>()[stage * L1M * L1K];
            AscendC::LocalTensor<Element> b1 = l1B.template Get<Element>()[stage * L1K * L1N];
            const uint32_t kSlab = (kt + 1 == kTiles) ? k - kt * L1K : L1K;
            for (uint32_t k0 = 0; k0 < kSlab; k0 += L0K) {
                const uint32_t kStep = kSlab - k0 < L0K ? kSlab - k0 : L0K;
                AscendC::LocalTensor<Element> a0 = l0A.template Get<Element>();
                AscendC::LocalTensor<Element> b0 = l0B.template Get<Element>();
                AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_L0);
                for (uint32_t i = 0; i < mRound / 16; ++i) {
                    AscendC::LoadData2DParams la{static_cast<uint16_t>(i + k0 / 16 * (mRound / 16)),
                                                 static_cast<uint8_t>(CeilDiv(kStep, 16U)),
                                                 static_cast<uint16_t>(mRound / 16), 0, 0, false, 0};
                    AscendC::LoadData(a0[i * 16 * RoundUp(kStep, 16U)], a1, la);
                }
                AscendC::LoadData2DParams lb{static_cast<uint16_t>(k0 / 16),
                                             static_cast<uint8_t>(CeilDiv(kStep, 16U) * (nRound / 16)), 1, 0, 0,
                                             true, 0};
                AscendC::LoadData(b0, b1, lb);
                AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_L0);
                AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_L0);
                AscendC::MmadParams mp{static_cast<uint16_t>(m), static_cast<uint16_t>(n),
                                       static_cast<uint16_t>(kStep), 0, false, kt == 0 && k0 == 0};
                AscendC::Mmad(c0, a0, b0, mp);
                AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_L0);
            }
            AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(stage); // this L1 slot may be refilled
        }
        AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_L0C);
        AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_L0C);
        AscendC::FixpipeParamsV220 fp{static_cast<uint16_t>(n), static_cast<uint16_t>(m),
                                      static_cast<uint16_t>(mRound), ldc, false};
        fp.quantPre = QuantMode_t::F322F16;
        AscendC::Fixpipe<Element, float, AscendC::CFG_ROW_MAJOR>(gC, c0, fp);
        AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);
    }

private:
    CATLASS_DEVICE void LoadStage(const AscendC::GlobalTensor<Element> &gA, const AscendC::GlobalTensor<Element> &gB,
                                  uint32_t kt, uint32_t m, uint32_t n, uint32_t k, uint32_t lda, uint32_t ldb)
    {
        const int32_t stage = static_cast<int32_t>(kt % STAGES);
        const uint32_t kSlab = k - kt * L1K < L1K ? k - kt * L1K : L1K;
        AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(stage);
        AscendC::Nd2NzParams aNz{1, static_cast<uint16_t>(m), static_cast<uint16_t>(kSlab), 0,
                                 static_cast<uint16_t>(lda), static_cast<uint16_t>(RoundUp(m, 16U)), 1, 0};
        AscendC::DataCopy(l1A.template Get<Element>()[stage * L1M * L1K], gA[kt * L1K], aNz);
        AscendC::Nd2NzParams bNz{1, static_cast<uint16_t>(kSlab), static_cast<uint16_t>(n), 0,
                                 static_cast<uint16_t>(ldb), static_cast<uint16_t>(RoundUp(kSlab, 16U)), 1, 0};
        AscendC::DataCopy(l1B.template Get<Element>()[stage * L1K * L1N], gB[kt * L1K * ldb], bNz);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(stage);
    }

    AscendC::TBuf<AscendC::TPosition::A1> l1A;
    AscendC::TBuf<AscendC::TPosition::B1> l1B;
    AscendC::TBuf<AscendC::TPosition::A2> l0A;
    AscendC::TBuf<AscendC::TPosition::B2> l0B;
    AscendC::TBuf<AscendC::TPosition::CO1> l0C;
};

// Swizzle: walk SWIZZLE_M tile rows together so neighbouring cores share B tiles in L2.
template <uint32_t SWIZZLE_M>
CATLASS_DEVICE void SwizzleTile(uint32_t tile, uint32_t mTiles, uint32_t nTiles, uint32_t &mIdx, uint32_t &nIdx)
{
    const uint32_t band = tile / (SWIZZLE_M * nTiles);
    const uint32_t bandRows = (band + 1) * SWIZZLE_M <= mTiles ? SWIZZLE_M : mTiles - band * SWIZZLE_M;
    const uint32_t inBand = tile % (SWIZZLE_M * nTiles);
    mIdx = band * SWIZZLE_M + inBand % bandRows;
    nIdx = inBand / bandRows;
}

template <class Element, uint32_t L1M, uint32_t L1N, uint32_t L1K, uint32_t L0K>
CATLASS_GLOBAL void BasicMatmul(CatlassLite::GemmCoord problem, GM_ADDR gmA, GM_ADDR gmB, GM_ADDR gmC)
{
    AscendC::TPipe pipe;
    BlockMmadPingpong<Element, L1M, L1N, L1K, L0K> blockMmad(pipe);
    AscendC::GlobalTensor<Element> a, b, c;
    a.SetGlobalBuffer((__gm__ Element *)gmA);
    b.SetGlobalBuffer((__gm__ Element *)gmB);
    c.SetGlobalBuffer((__gm__ Element *)gmC);
    const uint32_t mTiles = CeilDiv(problem.m, L1M);
    const uint32_t nTiles = CeilDiv(problem.n, L1N);
    for (uint32_t tile = AscendC::GetBlockIdx(); tile < mTiles * nTiles; tile += AscendC::GetBlockNum()) {
        uint32_t mIdx = 0;
        uint32_t nIdx = 0;
        SwizzleTile<4>(tile, mTiles, nTiles, mIdx, nIdx);
        const uint32_t m = mIdx + 1 == mTiles ? problem.m - mIdx * L1M : L1M;
        const uint32_t n = nIdx + 1 == nTiles ? problem.n - nIdx * L1N : L1N;
        blockMmad(a[mIdx * L1M * problem.k], b[nIdx * L1N], c[mIdx * L1M * problem.n + nIdx * L1N], m, n, problem.k,
                  problem.k, problem.n, problem.n);
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s m n k [device]\n", argv[0]);
        return 1;
    }
    CatlassLite::GemmCoord problem{static_cast<uint32_t>(std::atoi(argv[1])), static_cast<uint32_t>(std::atoi(argv[2])),
                                   static_cast<uint32_t>(std::atoi(argv[3]))};
    const int32_t deviceId = argc > 4 ? std::atoi(argv[4]) : 0;
    const size_t sizeA = static_cast<size_t>(problem.m) * problem.k * sizeof(uint16_t);
    const size_t sizeB = static_cast<size_t>(problem.k) * problem.n * sizeof(uint16_t);
    const size_t sizeC = static_cast<size_t>(problem.m) * problem.n * sizeof(uint16_t);
    aclrtStream stream = nullptr;
    uint8_t *dA = nullptr, *dB = nullptr, *dC = nullptr;
    aclInit(nullptr);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);
    aclrtMalloc((void **)&dA, sizeA, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dB, sizeB, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&dC, sizeC, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(dA, sizeA, 0x3c, sizeA); // a fixed bit pattern is enough to time the kernel
    aclrtMemset(dB, sizeB, 0x3c, sizeB);

    constexpr uint32_t aicCoreNum = 24;
    BasicMatmul<half, 128, 128, 128, 64><<<aicCoreNum, nullptr, stream>>>(problem, dA, dB, dC);
    aclrtSynchronizeStream(stream);
    std::printf("BasicMatmul %u x %u x %u done\n", problem.m, problem.n, problem.k);

    aclrtFree(dA);
    aclrtFree(dB);
    aclrtFree(dC);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
