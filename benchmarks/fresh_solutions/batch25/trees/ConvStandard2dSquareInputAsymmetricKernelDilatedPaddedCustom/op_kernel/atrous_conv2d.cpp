/*
 * AtrousConv2d: dense 2-D convolution (NCHW) with per-axis stride, zero padding and dilation.
 *
 * Each core walks over units (image n, block of output rows). For a unit it
 *   1. lowers the receptive fields into an im2col matrix col[K, rows*OW] in its GM scratch,
 *      K = C*KH*KW ordered like the filter (c, kh, kw), using the vector Gather instruction;
 *   2. runs filter[OC, K] x col on the cube unit, writing straight into y[n, :, oh0:oh0+rows, :].
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename T>
class AtrousConv2dKernel {
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    matmul::Matmul<AType, BType, CType, CType> mm;

    __aicore__ inline AtrousConv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR y, GM_ADDR usrWs,
                                const AtrousConv2dTilingData &t, TPipe *pipe)
    {
        t_ = t;
        K_ = static_cast<uint64_t>(t.inC) * t.kH * t.kW;
        colCols_ = static_cast<uint64_t>(t.rowsPerUnit) * t.outW;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)filter);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        colGm.SetGlobalBuffer((__gm__ T *)usrWs + GetBlockIdx() * K_ * colCols_, K_ * colCols_);

        pipe->InitBuffer(rowBuf, t.rowBufLen * sizeof(T));
        pipe->InitBuffer(idxBuf, t.outWAlign * sizeof(uint32_t));
        pipe->InitBuffer(outQ, 2, t.outWAlign * sizeof(T));

        // gather offsets (bytes) of the output columns relative to the first tap
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        for (uint32_t j = 0; j < t.outW; ++j) {
            idx.SetValue(j, j * t.strideW * static_cast<uint32_t>(sizeof(T)));
        }
        // margins of the staging row stay zero forever and act as the horizontal padding
        LocalTensor<T> row = rowBuf.Get<T>();
        Duplicate(row, static_cast<T>(0), t_.rowBufLen);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < t_.totalUnits; u += GetBlockNum()) {
            uint32_t n = u / t_.unitsPerImage;
            uint32_t oh0 = (u % t_.unitsPerImage) * t_.rowsPerUnit;
            uint32_t rows = t_.outH - oh0 < t_.rowsPerUnit ? t_.outH - oh0 : t_.rowsPerUnit;
            BuildColumns(n, oh0, rows);
            PipeBarrier<PIPE_ALL>();
            RunCube(n, oh0, rows);
        }
    }

private:
    __aicore__ inline void BuildColumns(uint32_t n, uint32_t oh0, uint32_t rows)
    {
        LocalTensor<T> row = rowBuf.Get<T>();
        LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
        const uint32_t OW = t_.outW;
        const uint64_t plane = static_cast<uint64_t>(t_.inH) * t_.inW;
        DataCopyExtParams outCp{1, static_cast<uint32_t>(OW * sizeof(T)), 0, 0, 0};

        for (uint32_t c = 0; c < t_.inC; ++c) {
            for (uint32_t kh = 0; kh < t_.kH; ++kh) {
                for (uint32_t r = 0; r < rows; ++r) {
                    int32_t ih = static_cast<int32_t>((oh0 + r) * t_.strideH + kh * t_.dilH) -
                                 static_cast<int32_t>(t_.padH);
                    bool inside = ih >= 0 && ih < static_cast<int32_t>(t_.inH);
                    if (inside) {
                        StageRow(n, c, static_cast<uint32_t>(ih), plane);
                    }
                    for (uint32_t kw = 0; kw < t_.kW; ++kw) {
                        LocalTensor<T> o = outQ.AllocTensor<T>();
                        if (inside) {
                            // first tap of this kw in staging coordinates
                            uint32_t base = (t_.leftMargin + kw * t_.dilW - t_.padW) * sizeof(T);
                            Gather(o, row, idx, base, OW);
                        } else {
                            Duplicate(o, static_cast<T>(0), OW);
                        }
                        outQ.EnQue(o);
                        o = outQ.DeQue<T>();
                        uint64_t kRow = (static_cast<uint64_t>(c) * t_.kH + kh) * t_.kW + kw;
                        DataCopyPad(colGm[kRow * colCols_ + static_cast<uint64_t>(r) * OW], o, outCp);
                        outQ.FreeTensor(o);
                    }
                }
            }
        }
    }

    // copies x[n, c, ih, :] into the middle of the staging row
    __aicore__ inline void StageRow(uint32_t n, uint32_t c, uint32_t ih, uint64_t plane)
    {
        LocalTensor<T> row = rowBuf.Get<T>();
        uint64_t src = (static_cast<uint64_t>(n) * t_.inC + c) * plane + static_cast<uint64_t>(ih) * t_.inW;
        uint32_t alignElems = 32 / sizeof(T);
        uint32_t padTail = (alignElems - t_.inW % alignElems) % alignElems;
        DataCopyExtParams cp{1, static_cast<uint32_t>(t_.inW * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(padTail), static_cast<T>(0)};
        // wait until the previous gathers have consumed the row
        event_t vToMte2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
        SetFlag<HardEvent::V_MTE2>(vToMte2);
        WaitFlag<HardEvent::V_MTE2>(vToMte2);
        DataCopyPad(row[t_.leftMargin], xGm[src], cp, pad);
        event_t mte2ToV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mte2ToV);
        WaitFlag<HardEvent::MTE2_V>(mte2ToV);
    }

    __aicore__ inline void RunCube(uint32_t n, uint32_t oh0, uint32_t rows)
    {
        uint64_t planeOut = static_cast<uint64_t>(t_.outH) * t_.outW;
        uint32_t cols = rows * t_.outW;
        // C rows are OH*OW apart in y while B rows are rowsPerUnit*OW apart in the scratch
        mm.SetOrgShape(t_.outC, static_cast<int>(colCols_), static_cast<int>(K_), static_cast<int>(K_),
                       static_cast<int>(planeOut));
        mm.SetTensorA(wGm);
        mm.SetTensorB(colGm);
        mm.SetTail(t_.outC, cols, static_cast<int>(K_));
        mm.IterateAll(yGm[static_cast<uint64_t>(n) * t_.outC * planeOut + static_cast<uint64_t>(oh0) * t_.outW]);
        mm.End();
        PipeBarrier<PIPE_ALL>();
    }

private:
    AtrousConv2dTilingData t_;
    uint64_t K_ = 0;
    uint64_t colCols_ = 0;
    GlobalTensor<T> xGm, wGm, yGm, colGm;
    TBuf<TPosition::VECCALC> rowBuf, idxBuf;
    TQue<QuePosition::VECOUT, 2> outQ;
};

extern "C" __global__ __aicore__ void atrous_conv2d(GM_ADDR x, GM_ADDR filter, GM_ADDR y, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    TPipe pipe;
    AtrousConv2dKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.mmTiling);
    op.Init(x, filter, y, usr, tilingData, &pipe);
    op.Process();
}
