// ConvBnResidualRelu
//   y = act( BN_inference(conv2d(x, W, stride, pad)) [+ residual] )
// The building block of ResNet-style networks (stem conv, both convs of a basic block,
// the 1x1 projection shortcut when relu=false and no residual).
//
// Stage A (vector): fold BN into per-channel scale/shift; lower x to im2col matrices
//                   col[n] : [Cin*K*K, OH*OW] in workspace (Gather handles stride and padding).
// Stage B (cube):   y[n][:, blk] = W[Cout, Cin*K*K] x col[n][:, blk]
// Stage C (vector): same core, same block: y = y*scale + shift (+res), relu.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr uint32_t GUARD = 8;
}

using MmA = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MmB = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MmC = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using ConvGemm = Matmul<MmA, MmB, MmC>;

class ConvBnResidualReluKernel {
public:
    __aicore__ inline ConvBnResidualReluKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR gamma, GM_ADDR beta, GM_ADDR mean, GM_ADDR var,
                                GM_ADDR residual, GM_ADDR y, GM_ADDR usr, const ConvBnResidualReluTilingData *td)
    {
        td_ = td;
        kdim_ = td->cin * td->k * td->k;
        coutA_ = (td->cout + 7) / 8 * 8;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        gGm.SetGlobalBuffer((__gm__ float *)gamma);
        bGm.SetGlobalBuffer((__gm__ float *)beta);
        mGm.SetGlobalBuffer((__gm__ float *)mean);
        vGm.SetGlobalBuffer((__gm__ float *)var);
        if (td->hasResidual) {
            rGm.SetGlobalBuffer((__gm__ float *)residual);
        }
        yGm.SetGlobalBuffer((__gm__ float *)y);
        scaleGm.SetGlobalBuffer((__gm__ float *)usr, coutA_);
        shiftGm.SetGlobalBuffer((__gm__ float *)usr + coutA_, coutA_);
        colGm.SetGlobalBuffer((__gm__ float *)usr + 2 * coutA_);

        uint32_t vecLen = td->rowBufLen > coutA_ ? td->rowBufLen : coutA_;
        vecLen = vecLen > td->colBlock ? vecLen : td->colBlock;
        pipe.InitBuffer(stageQ, 2, vecLen * sizeof(float));
        pipe.InitBuffer(outQ, 2, vecLen * sizeof(float));
        pipe.InitBuffer(offBuf, td->owAlign * sizeof(uint32_t));
        pipe.InitBuffer(tmpA, vecLen * sizeof(float));
        pipe.InitBuffer(tmpB, vecLen * sizeof(float));
    }

    __aicore__ inline void FoldBatchNorm()
    {
        if (GetBlockIdx() != 0) {
            return;
        }
        uint32_t c = td_->cout;
        DataCopyExtParams cp{1, c * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0};
        LocalTensor<float> g = tmpA.Get<float>();
        LocalTensor<float> v = tmpB.Get<float>();
        DataCopyPad(g, gGm, cp, np);
        DataCopyPad(v, vGm, cp, np);
        PipeBarrier<PIPE_ALL>();
        Adds(v, v, td_->eps, c);
        Sqrt(v, v, c);
        Div(g, g, v, c);                 // scale = gamma / sqrt(var + eps)
        PipeBarrier<PIPE_ALL>();
        DataCopyPad(scaleGm, g, cp);
        DataCopyPad(v, mGm, cp, np);
        PipeBarrier<PIPE_ALL>();
        Mul(v, v, g, c);
        LocalTensor<float> b = outQ.AllocTensor<float>();
        PipeBarrier<PIPE_ALL>();
        DataCopyPad(b, bGm, cp, np);
        PipeBarrier<PIPE_ALL>();
        Sub(b, b, v, c);                 // shift = beta - mean * scale
        PipeBarrier<PIPE_ALL>();
        DataCopyPad(shiftGm, b, cp);
        outQ.FreeTensor(b);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Im2Col()
    {
        const uint32_t K = td_->k, S = td_->stride, P = td_->pad;
        const uint32_t H = td_->h, W = td_->w, OH = td_->oh, OW = td_->ow;
        const uint64_t cols = td_->colCols;
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        DataCopyExtParams inCp{1, W * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyExtParams outCp{1, OW * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0};

        uint32_t rows = td_->n * td_->cin * K;   // (n, ci, ky)
        for (uint32_t r = GetBlockIdx(); r < rows; r += td_->workers) {
            uint32_t ky = r % K;
            uint32_t ci = (r / K) % td_->cin;
            uint32_t n = r / (K * td_->cin);
            for (uint32_t orow = 0; orow < OH; ++orow) {
                int32_t ih = static_cast<int32_t>(orow * S + ky) - static_cast<int32_t>(P);
                LocalTensor<float> row = stageQ.AllocTensor<float>();
                Duplicate(row, 0.0f, td_->rowBufLen);
                if (ih >= 0 && ih < static_cast<int32_t>(H)) {
                    event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE2));
                    SetFlag<HardEvent::V_MTE2>(e);
                    WaitFlag<HardEvent::V_MTE2>(e);
                    uint64_t src = ((static_cast<uint64_t>(n) * td_->cin + ci) * H + ih) * W;
                    DataCopyPad(row[GUARD], xGm[src], inCp, np);
                }
                stageQ.EnQue(row);
                row = stageQ.DeQue<float>();

                for (uint32_t kx = 0; kx < K; ++kx) {
                    // byte offsets into the guarded row; padding columns fall into zero guards
                    for (uint32_t o = 0; o < OW; ++o) {
                        offs.SetValue(o, (GUARD + o * S + kx - P) * sizeof(float));
                    }
                    LocalTensor<float> dst = outQ.AllocTensor<float>();
                    Gather(dst, row, offs, (uint32_t)0, OW);
                    outQ.EnQue(dst);
                    dst = outQ.DeQue<float>();
                    uint64_t colRow = (static_cast<uint64_t>(ci) * K + ky) * K + kx;
                    uint64_t dOff = (static_cast<uint64_t>(n) * kdim_ + colRow) * cols + static_cast<uint64_t>(orow) * OW;
                    DataCopyPad(colGm[dOff], dst, outCp);
                    outQ.FreeTensor(dst);
                }
                stageQ.FreeTensor(row);
            }
        }
    }

    __aicore__ inline void GemmAndEpilogue(ConvGemm &mm)
    {
        const uint32_t cols = td_->colCols;
        const uint32_t units = td_->n * td_->colBlocks;
        for (uint32_t u = GetBlockIdx(); u < units; u += td_->workers) {
            uint32_t n = u / td_->colBlocks;
            uint32_t j0 = (u % td_->colBlocks) * td_->colBlock;
            uint32_t nb = (cols - j0 < td_->colBlock) ? cols - j0 : td_->colBlock;
            uint64_t yBase = static_cast<uint64_t>(n) * td_->cout * cols;

            mm.SetTail(td_->cout, nb, kdim_);
            mm.SetTensorA(wGm);
            mm.SetTensorB(colGm[static_cast<uint64_t>(n) * kdim_ * cols + j0]);
            mm.IterateAll(yGm[yBase + j0]);
            mm.End();

            Epilogue(yBase + j0, nb);
        }
    }

private:
    __aicore__ inline void Epilogue(uint64_t base, uint32_t nb)
    {
        const uint64_t cols = td_->colCols;
        DataCopyExtParams cp{1, nb * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> np{false, 0, 0, 0};
        LocalTensor<float> res = tmpA.Get<float>();
        for (uint32_t co = 0; co < td_->cout; ++co) {
            float sc = scaleGm.GetValue(co);
            float sh = shiftGm.GetValue(co);
            uint64_t off = base + co * cols;
            LocalTensor<float> v = stageQ.AllocTensor<float>();
            DataCopyPad(v, yGm[off], cp, np);
            if (td_->hasResidual) {
                DataCopyPad(res, rGm[off], cp, np);
            }
            stageQ.EnQue(v);
            v = stageQ.DeQue<float>();

            LocalTensor<float> o = outQ.AllocTensor<float>();
            Muls(o, v, sc, nb);
            Adds(o, o, sh, nb);
            if (td_->hasResidual) {
                Add(o, o, res, nb);
            }
            if (td_->withRelu) {
                Relu(o, o, nb);
            }
            stageQ.FreeTensor(v);
            outQ.EnQue(o);
            o = outQ.DeQue<float>();
            DataCopyPad(yGm[off], o, cp);
            outQ.FreeTensor(o);
        }
        PipeBarrier<PIPE_ALL>();
    }

public:
    TPipe pipe;

private:
    const ConvBnResidualReluTilingData *td_ = nullptr;
    TQue<QuePosition::VECIN, 2> stageQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> offBuf, tmpA, tmpB;
    GlobalTensor<float> xGm, wGm, gGm, bGm, mGm, vGm, rGm, yGm, scaleGm, shiftGm, colGm;
    uint32_t kdim_ = 0;
    uint32_t coutA_ = 0;
};

extern "C" __global__ __aicore__ void conv_bn_residual_relu(GM_ADDR x, GM_ADDR weight, GM_ADDR bn_gamma,
                                                            GM_ADDR bn_beta, GM_ADDR bn_mean, GM_ADDR bn_var,
                                                            GM_ADDR residual, GM_ADDR y, GM_ADDR workspace,
                                                            GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    ConvBnResidualReluKernel op;
    ConvGemm mm;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mm, &td.gemm);
    op.Init(x, weight, bn_gamma, bn_beta, bn_mean, bn_var, residual, y, GetUserWorkspace(workspace), &td);
    op.FoldBatchNorm();
    op.Im2Col();
    SyncAll();
    op.GemmAndEpilogue(mm);
}
