// InvertedBottleneck kernel (float32, NCHW).
//
//   e = We @ x                       (cube)
//   a = relu6(e * s1 + b1)           (vector, fused into the depthwise row load)
//   d = relu6(dwconv_k(a) * s2 + b2) (vector)
//   y = Wp @ d                       (cube)
//   y = y * s3 + b3 (+ x)            (vector)
//
// The stages exchange data through the user workspace and are separated by SyncAll.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
constexpr uint32_t MAX_K2 = 81;     // up to 9x9 depthwise kernels
constexpr float RELU6_CAP = 6.0f;

using GmF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using Gemm = Matmul<GmF, GmF, GmF>;
}  // namespace

class InvertedBottleneckKernel {
public:
    __aicore__ inline InvertedBottleneckKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR we, GM_ADDR s1, GM_ADDR b1, GM_ADDR wd, GM_ADDR s2,
                                GM_ADDR b2, GM_ADDR wp, GM_ADDR s3, GM_ADDR b3, GM_ADDR y, GM_ADDR ws,
                                const InvertedBottleneckTilingData *tiling)
    {
        td = tiling;
        xG.SetGlobalBuffer((__gm__ float *)x);
        weG.SetGlobalBuffer((__gm__ float *)we);
        s1G.SetGlobalBuffer((__gm__ float *)s1);
        b1G.SetGlobalBuffer((__gm__ float *)b1);
        wdG.SetGlobalBuffer((__gm__ float *)wd);
        s2G.SetGlobalBuffer((__gm__ float *)s2);
        b2G.SetGlobalBuffer((__gm__ float *)b2);
        wpG.SetGlobalBuffer((__gm__ float *)wp);
        s3G.SetGlobalBuffer((__gm__ float *)s3);
        b3G.SetGlobalBuffer((__gm__ float *)b3);
        yG.SetGlobalBuffer((__gm__ float *)y);
        expG.SetGlobalBuffer((__gm__ float *)ws);
        dwG.SetGlobalBuffer((__gm__ float *)(ws + td->dwWsOffset));

        nWorkers = GetBlockNum() * GetTaskRation();
        me = GetBlockIdx();
    }

    // ---- stage 1 / 3 : 1x1 convolutions as per-image GEMMs over pixel blocks ----
    __aicore__ inline void PointwiseGemm(Gemm &mm, GlobalTensor<float> &wG, GlobalTensor<float> &src,
                                         GlobalTensor<float> &dst, uint32_t m, uint32_t kDim,
                                         uint32_t pixels, uint32_t colBlk)
    {
        uint32_t perImg = (pixels + colBlk - 1) / colBlk;
        uint32_t units = td->batch * perImg;
        for (uint32_t u = me; u < units; u += nWorkers) {
            uint32_t img = u / perImg;
            uint32_t c0 = (u % perImg) * colBlk;
            uint32_t cols = (pixels - c0) < colBlk ? (pixels - c0) : colBlk;
            mm.SetTensorA(wG);
            mm.SetTensorB(src[static_cast<uint64_t>(img) * kDim * pixels + c0]);
            mm.SetTail(m, cols, kDim);
            mm.IterateAll(dst[static_cast<uint64_t>(img) * m * pixels + c0]);
        }
        mm.End();
    }

    // ---- stage 2 : bn1+relu6 on the fly, depthwise conv, bn2+relu6 ----
    __aicore__ inline void Depthwise()
    {
        pipe->InitBuffer(rowQ, 2, td->rowBufLen * sizeof(float));
        pipe->InitBuffer(accQ, 1, td->woAlign * sizeof(float));
        pipe->InitBuffer(gBuf, td->woAlign * sizeof(float));
        pipe->InitBuffer(offBuf, td->ksize * td->woAlign * sizeof(uint32_t));
        // buffers of the final epilogue are reserved up front (UB is not reset between stages)
        pipe->InitBuffer(yInQ, 2, td->epiChunk * sizeof(float));
        pipe->InitBuffer(xInQ, 2, td->epiChunk * sizeof(float));
        pipe->InitBuffer(outQ, 2, td->epiChunk * sizeof(float));

        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < td->ksize; ++kw) {
            for (uint32_t j = 0; j < td->woAlign; ++j) {
                uint32_t jj = j < td->wo ? j : td->wo - 1;
                offs.SetValue(kw * td->woAlign + j,
                              (td->rowOffset - td->pad + jj * td->stride + kw) * static_cast<uint32_t>(sizeof(float)));
            }
        }

        uint32_t planes = td->batch * td->hidden;
        for (uint32_t p = me; p < planes; p += nWorkers) {
            DepthwisePlane(p);
        }
    }

    // ---- stage 4 : bn3 and optional identity add, in place on y ----
    __aicore__ inline void ProjectEpilogue()
    {
        uint32_t plane = td->ho * td->wo;
        uint32_t planes = td->batch * td->cout;
        for (uint32_t p = me; p < planes; p += nWorkers) {
            uint32_t co = p % td->cout;
            float sc = s3G.GetValue(co);
            float sh = b3G.GetValue(co);
            uint64_t base = static_cast<uint64_t>(p) * plane;
            for (uint32_t off = 0; off < plane; off += td->epiChunk) {
                uint32_t len = (plane - off) < td->epiChunk ? (plane - off) : td->epiChunk;
                DataCopyExtParams cp{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> np{false, 0, 0, 0.0f};
                LocalTensor<float> yl = yInQ.AllocTensor<float>();
                DataCopyPad(yl, yG[base + off], cp, np);
                yInQ.EnQue(yl);
                if (td->residual) {
                    LocalTensor<float> xl = xInQ.AllocTensor<float>();
                    DataCopyPad(xl, xG[base + off], cp, np);
                    xInQ.EnQue(xl);
                }
                LocalTensor<float> yv = yInQ.DeQue<float>();
                LocalTensor<float> ov = outQ.AllocTensor<float>();
                Muls(ov, yv, sc, len);
                Adds(ov, ov, sh, len);
                if (td->residual) {
                    LocalTensor<float> xv = xInQ.DeQue<float>();
                    Add(ov, ov, xv, len);
                    xInQ.FreeTensor(xv);
                }
                yInQ.FreeTensor(yv);
                outQ.EnQue(ov);
                LocalTensor<float> res = outQ.DeQue<float>();
                DataCopyPad(yG[base + off], res, cp);
                outQ.FreeTensor(res);
            }
        }
    }

    TPipe *pipe = nullptr;
    const InvertedBottleneckTilingData *td = nullptr;
    GlobalTensor<float> xG, weG, s1G, b1G, wdG, s2G, b2G, wpG, s3G, b3G, yG, expG, dwG;

private:
    __aicore__ inline void DepthwisePlane(uint32_t plane)
    {
        uint32_t c = plane % td->hidden;
        uint32_t k = td->ksize;
        float wk[MAX_K2];
        for (uint32_t i = 0; i < k * k && i < MAX_K2; ++i) {
            wk[i] = wdG.GetValue(static_cast<uint64_t>(c) * k * k + i);
        }
        float sc1 = s1G.GetValue(c), sh1 = b1G.GetValue(c);
        float sc2 = s2G.GetValue(c), sh2 = b2G.GetValue(c);

        uint64_t src = static_cast<uint64_t>(plane) * td->h * td->w;
        uint64_t dst = static_cast<uint64_t>(plane) * td->ho * td->wo;
        uint32_t wAl = (td->w + 7) / 8 * 8;
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        LocalTensor<float> gath = gBuf.Get<float>();

        for (uint32_t oy = 0; oy < td->ho; ++oy) {
            LocalTensor<float> acc = accQ.AllocTensor<float>();
            Duplicate(acc, 0.0f, td->woAlign);
            for (uint32_t ky = 0; ky < k; ++ky) {
                int32_t iy = static_cast<int32_t>(oy * td->stride + ky) - static_cast<int32_t>(td->pad);
                if (iy < 0 || iy >= static_cast<int32_t>(td->h)) {
                    continue;
                }
                LocalTensor<float> row = rowQ.AllocTensor<float>();
                Duplicate(row, 0.0f, td->rowBufLen);
                event_t e0 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
                SetFlag<HardEvent::V_MTE2>(e0);
                WaitFlag<HardEvent::V_MTE2>(e0);
                DataCopyExtParams cp{1, td->w * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> zp{true, 0, static_cast<uint8_t>(wAl - td->w), 0.0f};
                DataCopyPad(row[td->rowOffset], expG[src + static_cast<uint64_t>(iy) * td->w], cp, zp);
                rowQ.EnQue(row);
                LocalTensor<float> r = rowQ.DeQue<float>();

                // bn1 + relu6 on the real samples
                LocalTensor<float> body = r[td->rowOffset];
                Muls(body, body, sc1, wAl);
                Adds(body, body, sh1, wAl);
                Maxs(body, body, 0.0f, wAl);
                Mins(body, body, RELU6_CAP, wAl);
                if (wAl != td->w) {
                    // the affine shift turned the zero padding of the last block into sh1
                    event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
                    SetFlag<HardEvent::V_S>(e1);
                    WaitFlag<HardEvent::V_S>(e1);
                    for (uint32_t i = td->w; i < wAl; ++i) {
                        body.SetValue(i, 0.0f);
                    }
                    event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
                    SetFlag<HardEvent::S_V>(e2);
                    WaitFlag<HardEvent::S_V>(e2);
                }
                PipeBarrier<PIPE_V>();
                for (uint32_t kx = 0; kx < k; ++kx) {
                    Gather(gath, r, offs[kx * td->woAlign], 0, td->woAlign);
                    PipeBarrier<PIPE_V>();
                    Axpy(acc, gath, wk[ky * k + kx], td->woAlign);
                    PipeBarrier<PIPE_V>();
                }
                rowQ.FreeTensor(r);
            }
            Muls(acc, acc, sc2, td->woAlign);
            Adds(acc, acc, sh2, td->woAlign);
            Maxs(acc, acc, 0.0f, td->woAlign);
            Mins(acc, acc, RELU6_CAP, td->woAlign);
            accQ.EnQue(acc);
            LocalTensor<float> o = accQ.DeQue<float>();
            DataCopyExtParams st{1, td->wo * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(dwG[dst + static_cast<uint64_t>(oy) * td->wo], o, st);
            accQ.FreeTensor(o);
        }
    }

    TQue<QuePosition::VECIN, 2> rowQ, yInQ, xInQ;
    TQue<QuePosition::VECOUT, 1> accQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> gBuf, offBuf;
    uint32_t nWorkers = 1;
    uint32_t me = 0;
};

extern "C" __global__ __aicore__ void inverted_bottleneck(GM_ADDR x, GM_ADDR expand_weight, GM_ADDR expand_scale,
                                                          GM_ADDR expand_shift, GM_ADDR dw_weight, GM_ADDR dw_scale,
                                                          GM_ADDR dw_shift, GM_ADDR project_weight,
                                                          GM_ADDR project_scale, GM_ADDR project_shift, GM_ADDR y,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    if (usr == nullptr) {
        return;
    }
    TPipe pipe;
    Gemm mmExpand;
    Gemm mmProject;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mmExpand, &td.expandMm, mmProject, &td.projectMm);

    InvertedBottleneckKernel op;
    op.pipe = &pipe;
    op.Init(x, expand_weight, expand_scale, expand_shift, dw_weight, dw_scale, dw_shift, project_weight,
            project_scale, project_shift, y, usr, &td);

    uint32_t hw = td.h * td.w;
    uint32_t howo = td.ho * td.wo;
    op.PointwiseGemm(mmExpand, op.weG, op.xG, op.expG, td.hidden, td.cin, hw, td.expandCols);
    SyncAll();
    op.Depthwise();
    SyncAll();
    op.PointwiseGemm(mmProject, op.wpG, op.dwG, op.yG, td.cout, td.hidden, howo, td.projectCols);
    SyncAll();
    op.ProjectEpilogue();
}
