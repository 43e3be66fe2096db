#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using LhsType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using RhsType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // read transposed
using OutType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class SymmetricPairMatmulKernel {
public:
    __aicore__ inline SymmetricPairMatmulKernel() {}

    __aicore__ inline void Init(GM_ADDR lhs, GM_ADDR rhs, GM_ADDR out, const SymmetricPairMatmulTilingData &td)
    {
        M = td.dimM;
        N = td.dimN;
        K = td.dimK;
        tileM = td.tileM;
        tileN = td.tileN;
        tilesM = td.tilesAlongM;
        tilesN = td.tilesAlongN;
        group = td.groupRows == 0 ? 1 : td.groupRows;

        lhsGm.SetGlobalBuffer((__gm__ float *)lhs, static_cast<uint64_t>(M) * K);
        rhsGm.SetGlobalBuffer((__gm__ float *)rhs, static_cast<uint64_t>(K) * N);
        outGm.SetGlobalBuffer((__gm__ float *)out, static_cast<uint64_t>(M) * N);
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = tilesM * tilesN;
        for (uint32_t t = GetBlockIdx(); t < tiles; t += GetBlockNum()) {
            uint32_t tm, tn;
            Swizzle(t, tm, tn);
            ComputeTile(tm, tn);
        }
        mm.End();
    }

private:
    // Walk the tile grid in vertical strips `group` tiles tall so that cores
    // running at the same time share both lhs row bands and rhs bands in L2.
    __aicore__ inline void Swizzle(uint32_t t, uint32_t &tm, uint32_t &tn)
    {
        uint32_t perStrip = group * tilesN;
        uint32_t strip = t / perStrip;
        uint32_t inStrip = t % perStrip;
        uint32_t stripBegin = strip * group;
        uint32_t rowsHere = tilesM - stripBegin < group ? tilesM - stripBegin : group;
        tm = stripBegin + inStrip % rowsHere;
        tn = inStrip / rowsHere;
    }

    __aicore__ inline void ComputeTile(uint32_t tm, uint32_t tn)
    {
        uint32_t row0 = tm * tileM;
        uint32_t col0 = tn * tileN;
        int32_t curM = static_cast<int32_t>(M - row0 < tileM ? M - row0 : tileM);
        int32_t curN = static_cast<int32_t>(N - col0 < tileN ? N - col0 : tileN);

        // lhs row band [row0, row0+curM) x K
        // rhs treated as [N, K]: rows col0.. are the columns we need
        mm.SetTensorA(lhsGm[static_cast<uint64_t>(row0) * K]);
        mm.SetTensorB(rhsGm[static_cast<uint64_t>(col0) * K], true);
        // edge tiles are smaller than the tile the tiling was computed for
        mm.SetTail(curM, curN, static_cast<int32_t>(K));
        mm.IterateAll(outGm[static_cast<uint64_t>(row0) * N + col0]);
    }

public:
    Matmul<LhsType, RhsType, OutType> mm;

private:
    GlobalTensor<float> lhsGm, rhsGm, outGm;
    uint32_t M = 0, N = 0, K = 0;
    uint32_t tileM = 0, tileN = 0, tilesM = 0, tilesN = 0, group = 1;
};

extern "C" __global__ __aicore__ void symmetric_pair_matmul_custom(GM_ADDR lhs, GM_ADDR rhs, GM_ADDR out,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    SymmetricPairMatmulKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mmCfg);
    op.Init(lhs, rhs, out, td);
    op.Process();
}
