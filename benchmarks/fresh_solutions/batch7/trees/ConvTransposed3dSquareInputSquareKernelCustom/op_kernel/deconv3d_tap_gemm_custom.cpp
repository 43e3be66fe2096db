#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// Every output depth plane y[n, od] is a [Hout*Wp, Cout] matrix:
//
//   y[n, od] = sum_{a,b,c} Xslab(n, od + a, b, c) @ Wtap(a, b, c)
//
// where Xslab is the [Hout*Wp, Cin] window of the padded channels-last input
// that starts at row (b * Wp + c) of plane od + a, and Wtap is the flipped
// kernel tap, laid out [Cin, Cout]. Because the width of the slab equals the
// padded width, rows that cross an image row only produce the Wp - Wout
// trailing "junk" columns, which the caller drops.
class Deconv3dTapGemmKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline Deconv3dTapGemmKernel() {}

    __aicore__ inline void Init(GM_ADDR xPad, GM_ADDR tapW, GM_ADDR y, const Deconv3dTapGemmTilingData &t)
    {
        batch_ = t.batch;
        dp_ = t.padDepth;
        hp_ = t.padHeight;
        wp_ = t.padWidth;
        cin_ = t.cin;
        cout_ = t.cout;
        k_ = t.kernel;
        dout_ = t.outDepth;
        planeRows_ = t.planeRows;
        taskNum_ = t.taskNum;

        uint64_t xLen = static_cast<uint64_t>(batch_) * dp_ * hp_ * wp_ * cin_;
        uint64_t wLen = static_cast<uint64_t>(k_) * k_ * k_ * cin_ * cout_;
        uint64_t yLen = static_cast<uint64_t>(taskNum_) * planeRows_ * cout_;
        xGm_.SetGlobalBuffer((__gm__ float *)xPad, xLen);
        wGm_.SetGlobalBuffer((__gm__ float *)tapW, wLen);
        yGm_.SetGlobalBuffer((__gm__ float *)y, yLen);
    }

    __aicore__ inline void Process()
    {
        const uint64_t planeElems = static_cast<uint64_t>(hp_) * wp_ * cin_;
        const uint64_t tapElems = static_cast<uint64_t>(cin_) * cout_;
        const uint64_t outPlane = static_cast<uint64_t>(planeRows_) * cout_;

        for (uint32_t task = GetBlockIdx(); task < taskNum_; task += GetBlockNum()) {
            uint32_t n = task / dout_;
            uint32_t od = task % dout_;
            GlobalTensor<float> dst = yGm_[static_cast<uint64_t>(task) * outPlane];

            uint8_t accumulate = 0; // first tap overwrites, the rest atomically add
            for (uint32_t a = 0; a < k_; ++a) {
                uint64_t planeBase = (static_cast<uint64_t>(n) * dp_ + od + a) * planeElems;
                for (uint32_t b = 0; b < k_; ++b) {
                    for (uint32_t c = 0; c < k_; ++c) {
                        uint64_t slabOff = planeBase + (static_cast<uint64_t>(b) * wp_ + c) * cin_;
                        uint64_t tap = (static_cast<uint64_t>(a) * k_ + b) * k_ + c;
                        gemm.SetTensorA(xGm_[slabOff]);
                        gemm.SetTensorB(wGm_[tap * tapElems]);
                        gemm.IterateAll(dst, accumulate);
                        accumulate = 1;
                    }
                }
            }
        }
        gemm.End();
    }

public:
    Matmul<AType, BType, CType> gemm;

private:
    GlobalTensor<float> xGm_, wGm_, yGm_;
    uint32_t batch_ = 0, dp_ = 0, hp_ = 0, wp_ = 0;
    uint32_t cin_ = 0, cout_ = 0, k_ = 0;
    uint32_t dout_ = 0, planeRows_ = 0, taskNum_ = 0;
};

extern "C" __global__ __aicore__ void deconv3d_tap_gemm_custom(GM_ADDR x_pad, GM_ADDR tap_weight, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    Deconv3dTapGemmKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.gemm, &tilingData.gemm);
    op.Init(x_pad, tap_weight, y, tilingData);
    op.Process();
}
