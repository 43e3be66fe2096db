// VolumetricConv: dense 3-D convolution (NCDHW, cubic filter, uniform stride/padding/dilation).
//
// Implemented as im2col + cube GEMM, block by block:
//   * a work item is (sample n, block of `rowsPerBlock` output lines (od, oh), each OW long)
//   * the vector side writes colT[K, cols] into this core's workspace, K = Cin*k^3,
//     using Gather over a zero-padded input line so stride/dilation/padding are handled uniformly
//   * the cube computes y[n][:, block] = filter[Cout, K] x colT[K, cols]; the C matrix is written
//     straight into NCDHW output (row stride = OD*OH*OW)
//   * optional bias is added per output channel afterwards.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

class VolumetricConvKernel {
    using MatA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using MatB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using MatC = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    matmul::Matmul<MatA, MatB, MatC, MatC> gemm;

    __aicore__ inline VolumetricConvKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y, GM_ADDR ws,
                                const VolumetricConvTilingData *tp)
    {
        t = tp;
        spatial = t->outD * t->outH * t->outW;
        colsFull = t->rowsPerBlock * t->outW;
        owAlign = (t->outW + 7) / 8 * 8;
        inWAlign = (t->inW + 7) / 8 * 8;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        fGm.SetGlobalBuffer((__gm__ float *)filter);
        if (t->hasBias) {
            bGm.SetGlobalBuffer((__gm__ float *)bias);
        }
        yGm.SetGlobalBuffer((__gm__ float *)y);
        colGm.SetGlobalBuffer((__gm__ float *)ws + static_cast<uint64_t>(GetBlockIdx()) * t->reduceLen * colsFull);

        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), gemm, &t->gemm);

        pipe.InitBuffer(lineBuf, t->lineLen * sizeof(float));
        pipe.InitBuffer(gatherQ, 2, owAlign * sizeof(float));
        pipe.InitBuffer(zeroBuf, owAlign * sizeof(float));
        pipe.InitBuffer(offBuf, owAlign * sizeof(int32_t));
        pipe.InitBuffer(biasQ, 1, ((colsFull + 7) / 8 * 8) * sizeof(float));

        LocalTensor<float> line = lineBuf.Get<float>();
        Duplicate(line, 0.0f, t->lineLen);          // borders stay zero forever
        Duplicate(zeroBuf.Get<float>(), 0.0f, owAlign);
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        ArithProgression<int32_t>(off, 0, static_cast<int32_t>(t->stride * sizeof(float)),
                                  static_cast<int32_t>(t->outW));
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process()
    {
        uint32_t items = t->batch * t->blocksPerSample;
        for (uint32_t it = GetBlockIdx(); it < items; it += GetBlockNum()) {
            uint32_t n = it / t->blocksPerSample;
            uint32_t blk = it - n * t->blocksPerSample;
            uint32_t line0 = blk * t->rowsPerBlock;
            uint32_t lines = t->outD * t->outH;
            uint32_t cnt = (lines - line0) < t->rowsPerBlock ? (lines - line0) : t->rowsPerBlock;

            BuildColumns(n, line0, cnt);
            PipeBarrier<PIPE_ALL>();   // colT must be in GM before the cube reads it

            uint64_t yOff = static_cast<uint64_t>(n) * t->cout * spatial + static_cast<uint64_t>(line0) * t->outW;
            gemm.SetTensorA(fGm);
            gemm.SetTensorB(colGm);
            gemm.SetTail(t->cout, cnt * t->outW, t->reduceLen);
            gemm.IterateAll(yGm[yOff]);
            PipeBarrier<PIPE_ALL>();

            if (t->hasBias) {
                AddBias(yOff, cnt * t->outW);
            }
        }
        gemm.End();
    }

private:
    template <HardEvent E>
    __aicore__ inline void Fence()
    {
        event_t id = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline void EmitRow(uint64_t dst, const LocalTensor<float> &src)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(t->outW * sizeof(float)), 0, 0, 0};
        DataCopyPad(colGm[dst], src, cp);
    }

    __aicore__ inline void BuildColumns(uint32_t n, uint32_t line0, uint32_t cnt)
    {
        const uint32_t k = t->k;
        const int32_t s = static_cast<int32_t>(t->stride);
        const int32_t p = static_cast<int32_t>(t->pad);
        const int32_t dl = static_cast<int32_t>(t->dil);
        const uint64_t planeIn = static_cast<uint64_t>(t->inH) * t->inW;
        LocalTensor<float> line = lineBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<float> zeros = zeroBuf.Get<float>();

        for (uint32_t ci = 0; ci < t->cin; ++ci) {
            for (uint32_t kd = 0; kd < k; ++kd) {
                for (uint32_t kh = 0; kh < k; ++kh) {
                    uint32_t kBase = ((ci * k + kd) * k + kh) * k;   // row of colT for kw = 0
                    for (uint32_t j = 0; j < cnt; ++j) {
                        uint32_t ln = line0 + j;
                        int32_t od = static_cast<int32_t>(ln / t->outH);
                        int32_t oh = static_cast<int32_t>(ln - static_cast<uint32_t>(od) * t->outH);
                        int32_t id = od * s - p + static_cast<int32_t>(kd) * dl;
                        int32_t ih = oh * s - p + static_cast<int32_t>(kh) * dl;
                        bool inside = id >= 0 && id < static_cast<int32_t>(t->inD) && ih >= 0 &&
                                      ih < static_cast<int32_t>(t->inH);
                        if (!inside) {
                            Fence<HardEvent::V_MTE3>();
                            for (uint32_t kw = 0; kw < k; ++kw) {
                                EmitRow(static_cast<uint64_t>(kBase + kw) * colsFull + j * t->outW, zeros);
                            }
                            continue;
                        }
                        uint64_t src = ((static_cast<uint64_t>(n) * t->cin + ci) * t->inD + id) * planeIn +
                                       static_cast<uint64_t>(ih) * t->inW;
                        Fence<HardEvent::V_MTE2>();
                        DataCopyExtParams cp{1, static_cast<uint32_t>(t->inW * sizeof(float)), 0, 0, 0};
                        DataCopyPadExtParams<float> zp{true, 0, static_cast<uint8_t>(inWAlign - t->inW), 0.0f};
                        DataCopyPad(line[t->lineOff], xGm[src], cp, zp);
                        Fence<HardEvent::MTE2_V>();
                        for (uint32_t kw = 0; kw < k; ++kw) {
                            LocalTensor<float> g = gatherQ.AllocTensor<float>();
                            uint32_t base = (t->lineOff - t->pad + kw * t->dil) * sizeof(float);
                            Gather(g, line, off, base, t->outW);
                            gatherQ.EnQue(g);
                            g = gatherQ.DeQue<float>();
                            EmitRow(static_cast<uint64_t>(kBase + kw) * colsFull + j * t->outW, g);
                            gatherQ.FreeTensor(g);
                        }
                    }
                }
            }
        }
    }

    __aicore__ inline void AddBias(uint64_t yOff, uint32_t cols)
    {
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
        for (uint32_t co = 0; co < t->cout; ++co) {
            uint64_t o = yOff + static_cast<uint64_t>(co) * spatial;
            LocalTensor<float> v = biasQ.AllocTensor<float>();
            DataCopyPad(v, yGm[o], cp, np);
            biasQ.EnQue(v);
            v = biasQ.DeQue<float>();
            Adds(v, v, bGm.GetValue(co), cols);
            Fence<HardEvent::V_MTE3>();
            DataCopyPad(yGm[o], v, cp);
            Fence<HardEvent::MTE3_MTE2>();
            biasQ.FreeTensor(v);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> lineBuf, zeroBuf, offBuf;
    TQue<QuePosition::VECOUT, 2> gatherQ;
    TQue<QuePosition::VECIN, 1> biasQ;
    GlobalTensor<float> xGm, fGm, bGm, yGm, colGm;
    const VolumetricConvTilingData *t = nullptr;
    uint32_t spatial = 0, colsFull = 0, owAlign = 0, inWAlign = 0;
};

extern "C" __global__ __aicore__ void volumetric_conv(GM_ADDR x, GM_ADDR filter, GM_ADDR bias, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    VolumetricConvKernel op;
    op.Init(x, filter, bias, y, usr, &td);
    op.Process();
}
