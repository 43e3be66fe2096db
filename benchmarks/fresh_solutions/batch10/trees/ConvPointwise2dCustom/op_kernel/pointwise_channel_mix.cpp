// PointwiseChannelMix kernel: cube-only GEMM per (image, pixel-column tile).
//   Y[n][:, cols] = W[Cout, Cin] * X[n][Cin, cols]
// A is the weight (shared by all items), B is a column slice of the image viewed
// as a Cin x HW row-major matrix, C goes straight to the output slice via fixpipe.
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class PointwiseChannelMixKernel {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    __aicore__ inline PointwiseChannelMixKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const PointwiseChannelMixTilingData& td)
    {
        batch = td.batch;
        cin = td.cin;
        cout = td.cout;
        pixels = td.pixels;
        colTile = td.colTile;
        tilesPerImage = td.tilesPerImage;
        totalTiles = td.totalTiles;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(w));
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y));
    }

    __aicore__ inline void Process(TPipe* pipe, const TCubeTiling* tiling)
    {
        REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), gemm, tiling);
        const uint32_t step = GetBlockNum();
        for (uint32_t item = GetBlockIdx(); item < totalTiles; item += step) {
            const uint32_t img = item / tilesPerImage;
            const uint32_t col = (item % tilesPerImage) * colTile;
            const uint32_t width = (pixels - col) < colTile ? (pixels - col) : colTile;

            const uint64_t xOff = static_cast<uint64_t>(img) * cin * pixels + col;
            const uint64_t yOff = static_cast<uint64_t>(img) * cout * pixels + col;

            gemm.SetTensorA(wGm);
            gemm.SetTensorB(xGm[xOff]);
            if (width != colTile) {
                gemm.SetTail(cout, width, cin);   // last, narrower tile of the image
            }
            gemm.IterateAll(yGm[yOff]);
            if (width != colTile) {
                gemm.SetTail(cout, colTile, cin);
            }
        }
        gemm.End();
    }

private:
    Matmul<AType, BType, CType, BiasType> gemm;
    GlobalTensor<T> xGm, wGm, yGm;
    uint32_t batch = 0, cin = 0, cout = 0, pixels = 0;
    uint32_t colTile = 0, tilesPerImage = 0, totalTiles = 0;
};

extern "C" __global__ __aicore__ void pointwise_channel_mix(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    if (workspace == nullptr) {
        return;
    }
    SetSysWorkspace(workspace);
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    PointwiseChannelMixKernel<DTYPE_X> op;
    op.Init(x, weight, y, td);
    op.Process(&pipe, &td.mm);
}
