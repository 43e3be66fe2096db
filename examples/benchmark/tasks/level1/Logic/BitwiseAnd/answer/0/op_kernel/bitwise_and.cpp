/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

// Bitwise AND of two integer tensors of the same shape.
// The vector And instruction works on 16-bit lanes; because AND is bit-parallel, int32 data is
// simply viewed as twice as many int16 lanes, so one code path serves int16 and int32.
#include "kernel_operator.h"

struct AndSlice {
    uint64_t lanes16;     // this core's length in 16-bit lanes
    uint64_t firstLane16; // where it starts
};

class BitwiseAndKernel {
public:
    __aicore__ inline BitwiseAndKernel() = default;

    __aicore__ inline void Setup(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t bytesPerElem,
                                 uint64_t elemsPerCore, uint64_t elemsLastCore, uint32_t chunkLanes)
    {
        const uint32_t me = AscendC::GetBlockIdx();
        const bool last = me + 1 == AscendC::GetBlockNum();
        const uint32_t widen = bytesPerElem / sizeof(int16_t);
        slice.lanes16 = (last ? elemsLastCore : elemsPerCore) * widen;
        slice.firstLane16 = static_cast<uint64_t>(me) * elemsPerCore * widen;
        chunk = chunkLanes;

        lhs.SetGlobalBuffer(reinterpret_cast<__gm__ int16_t*>(a) + slice.firstLane16, slice.lanes16);
        rhs.SetGlobalBuffer(reinterpret_cast<__gm__ int16_t*>(b) + slice.firstLane16, slice.lanes16);
        res.SetGlobalBuffer(reinterpret_cast<__gm__ int16_t*>(out) + slice.firstLane16, slice.lanes16);
        pipe.InitBuffer(lhsQ, 1, chunk * sizeof(int16_t));
        pipe.InitBuffer(rhsQ, 1, chunk * sizeof(int16_t));
        pipe.InitBuffer(resQ, 1, chunk * sizeof(int16_t));
    }

    __aicore__ inline void Run()
    {
        uint64_t pos = 0;
        while (pos < slice.lanes16) {
            const uint64_t left = slice.lanes16 - pos;
            const uint32_t take = left < chunk ? static_cast<uint32_t>(left) : chunk;
            Load(pos, take);
            Apply(take);
            Store(pos, take);
            pos += take;
        }
    }

private:
    __aicore__ inline void Load(uint64_t pos, uint32_t take)
    {
        auto l = lhsQ.AllocTensor<int16_t>();
        auto r = rhsQ.AllocTensor<int16_t>();
        AscendC::DataCopyExtParams cp{1, take * 2U, 0, 0, 0};
        AscendC::DataCopyPadExtParams<int16_t> nopad{false, 0, 0, 0};
        AscendC::DataCopyPad(l, lhs[pos], cp, nopad);
        AscendC::DataCopyPad(r, rhs[pos], cp, nopad);
        lhsQ.EnQue(l);
        rhsQ.EnQue(r);
    }

    __aicore__ inline void Apply(uint32_t take)
    {
        auto l = lhsQ.DeQue<int16_t>();
        auto r = rhsQ.DeQue<int16_t>();
        auto o = resQ.AllocTensor<int16_t>();
        AscendC::And(o, l, r, static_cast<int32_t>(take));
        resQ.EnQue(o);
        lhsQ.FreeTensor(l);
        rhsQ.FreeTensor(r);
    }

    __aicore__ inline void Store(uint64_t pos, uint32_t take)
    {
        auto o = resQ.DeQue<int16_t>();
        AscendC::DataCopyPad(res[pos], o, AscendC::DataCopyExtParams{1, take * 2U, 0, 0, 0});
        resQ.FreeTensor(o);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> lhsQ;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> rhsQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> resQ;
    AscendC::GlobalTensor<int16_t> lhs;
    AscendC::GlobalTensor<int16_t> rhs;
    AscendC::GlobalTensor<int16_t> res;
    AndSlice slice{};
    uint32_t chunk = 0;
};

extern "C" __global__ __aicore__ void bitwise_and(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(cfg, tiling);
    BitwiseAndKernel k;
    k.Setup(x1, x2, y, cfg.bytesPerElem, cfg.elemsPerCore, cfg.elemsLastCore, cfg.chunkLanes);
    k.Run();
}
