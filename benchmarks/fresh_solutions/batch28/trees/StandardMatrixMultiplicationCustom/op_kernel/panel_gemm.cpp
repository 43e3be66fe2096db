/**
 * PanelGemm kernel: y = x1 * x2 (fp32, row-major ND).
 *
 * The output is cut into panelsM x panelsN panels of panelM x panelN.  Panels
 * are numbered in "grouped" order (groups of groupM panel-rows, walked
 * column by column inside a group) and handed out round-robin to the AI
 * Cores, so one wave of cores works on a compact region of C and re-reads the
 * same A row panels / B column panels from L2.  Each panel is a full-K
 * Matmul-API call; edge panels are shrunk with SetTail.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using MatA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MatB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MatC = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MatBias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

class PanelGemmKernel {
public:
    __aicore__ inline PanelGemmKernel() {}

    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const PanelGemmTilingData &td)
    {
        m_ = td.m;
        n_ = td.n;
        k_ = td.k;
        pm_ = td.panelM;
        pn_ = td.panelN;
        panelsM_ = td.panelsM;
        panelsN_ = td.panelsN;
        groupM_ = td.groupM == 0 ? 1 : td.groupM;
        cube_ = td.cube;
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x1), static_cast<uint64_t>(m_) * k_);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x2), static_cast<uint64_t>(k_) * n_);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), static_cast<uint64_t>(m_) * n_);
    }

    __aicore__ inline void Process(TPipe *pipe)
    {
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), mm_, &cube_);
        const uint32_t total = panelsM_ * panelsN_;
        const uint32_t stride = GetBlockNum();
        for (uint32_t id = GetBlockIdx(); id < total; id += stride) {
            uint32_t pmIdx = 0;
            uint32_t pnIdx = 0;
            MapPanel(id, pmIdx, pnIdx);
            RunPanel(pmIdx, pnIdx);
        }
        mm_.End();
    }

private:
    // Grouped ordering: ids fill a group of groupM panel-rows column-major.
    __aicore__ inline void MapPanel(uint32_t id, uint32_t &pmIdx, uint32_t &pnIdx) const
    {
        uint32_t perGroup = groupM_ * panelsN_;
        uint32_t group = id / perGroup;
        uint32_t firstRow = group * groupM_;
        uint32_t rowsInGroup = (panelsM_ - firstRow) < groupM_ ? (panelsM_ - firstRow) : groupM_;
        uint32_t local = id % perGroup;
        pmIdx = firstRow + local % rowsInGroup;
        pnIdx = local / rowsInGroup;
    }

    __aicore__ inline void RunPanel(uint32_t pmIdx, uint32_t pnIdx)
    {
        uint32_t row0 = pmIdx * pm_;
        uint32_t col0 = pnIdx * pn_;
        int32_t rows = static_cast<int32_t>((m_ - row0) < pm_ ? (m_ - row0) : pm_);
        int32_t cols = static_cast<int32_t>((n_ - col0) < pn_ ? (n_ - col0) : pn_);

        mm_.SetTensorA(aGm_[static_cast<uint64_t>(row0) * k_], false);
        mm_.SetTensorB(bGm_[col0], false);
        // Always reset the single-core shape: a previous edge panel may have shrunk it.
        mm_.SetTail(rows, cols, static_cast<int32_t>(k_));
        mm_.IterateAll(cGm_[static_cast<uint64_t>(row0) * n_ + col0]);
    }

private:
    matmul::Matmul<MatA, MatB, MatC, MatBias> mm_;
    TCubeTiling cube_;
    GlobalTensor<float> aGm_, bGm_, cGm_;
    uint32_t m_ = 0, n_ = 0, k_ = 0, pm_ = 0, pn_ = 0, panelsM_ = 0, panelsN_ = 0, groupM_ = 1;
};

extern "C" __global__ __aicore__ void panel_gemm(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(td, tiling);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    TPipe pipe;
    PanelGemmKernel op;
    op.Init(x1, x2, y, td);
    op.Process(&pipe);
}
