// UpConv3dBnCenter
//
//   t = conv_transpose3d(x, w, stride, padding)
//   u = batch_norm(t) using batch statistics per channel
//   y = u - mean_{d,h,w}(u)
//
// Per channel the batch norm is the affine map u = (t - mu_c) * g_c / sigma_c + b_c, so after
// removing the per-plane spatial mean only y = g_c / sigma_c * (t - mean_{n,c}(t)) survives:
// a conv bias, the BN shift and the batch mean cancel exactly. The kernel therefore
//   pass 1: computes each (n, c) plane of t, stores it in y and records sum / sum^2 of the plane;
//   SyncAll;
//   pass 2: combines the plane sums of channel c over the batch into sigma_c and rescales the
//           centred plane in place.
#include "kernel_operator.h"

using namespace AscendC;

class UpConv3dBnCenterKernel {
public:
    __aicore__ inline UpConv3dBnCenterKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR gamma, GM_ADDR y, GM_ADDR usrWs,
                                const UpConv3dBnCenterTilingData &tl)
    {
        t = tl;
        k3 = t.ks * t.ks * t.ks;
        plane = static_cast<uint64_t>(t.od) * t.oh * t.ow;
        uint32_t b = GetBlockIdx() * t.jobsPerCore;
        jobLo = b < t.jobs ? b : t.jobs;
        jobHi = jobLo + t.jobsPerCore < t.jobs ? jobLo + t.jobsPerCore : t.jobs;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        gGm.SetGlobalBuffer((__gm__ float *)gamma);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        statGm.SetGlobalBuffer((__gm__ float *)usrWs, static_cast<uint64_t>(t.jobs) * 8);

        pipe.InitBuffer(rowQ, 2, t.iwAlign * sizeof(float));
        pipe.InitBuffer(outQ, 2, t.owAlign * sizeof(float));
        pipe.InitBuffer(wBuf, t.cin * t.k3Align * sizeof(float));
        // K partial rows (one per kw) followed by one zero slot used by out-of-range taps
        pipe.InitBuffer(partBuf, (t.ks * t.iwAlign + 8) * sizeof(float));
        pipe.InitBuffer(offBuf, t.ks * t.owAlign * sizeof(uint32_t));
        pipe.InitBuffer(gathBuf, t.owAlign * sizeof(float));
        pipe.InitBuffer(tmpBuf, t.owAlign * sizeof(float));
        pipe.InitBuffer(statBuf, (t.n * 8 > 64 ? t.n * 8 : 64) * sizeof(float));
        pipe.InitBuffer(inQ2, 2, t.chunk * sizeof(float));
        pipe.InitBuffer(outQ2, 2, t.chunk * sizeof(float));
        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t j = jobLo; j < jobHi; ++j) {
            ConvPlane(j);
        }
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        for (uint32_t j = jobLo; j < jobHi; ++j) {
            RescalePlane(j);
        }
    }

private:
    // Byte offsets for Gather: output column ow takes partial row kw at iw = (ow + pad - kw) / stride
    // when that division is exact and iw is inside the input; otherwise it points to the zero slot.
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        uint32_t zeroSlot = t.ks * t.iwAlign * sizeof(float);
        for (uint32_t kw = 0; kw < t.ks; ++kw) {
            for (uint32_t o = 0; o < t.owAlign; ++o) {
                int32_t v = static_cast<int32_t>(o + t.pad) - static_cast<int32_t>(kw);
                uint32_t val = zeroSlot;
                if (o < t.ow && v >= 0 && v % static_cast<int32_t>(t.stride) == 0) {
                    uint32_t src = static_cast<uint32_t>(v) / t.stride;
                    if (src < t.iw) {
                        val = (kw * t.iwAlign + src) * sizeof(float);
                    }
                }
                off.SetValue(kw * t.owAlign + o, val);
            }
        }
    }

    __aicore__ inline void ConvPlane(uint32_t job)
    {
        uint32_t b = job / t.cout;
        uint32_t oc = job % t.cout;

        // weights of this output channel for every input channel: rows of K^3, stride Cout*K^3
        LocalTensor<float> wl = wBuf.Get<float>();
        DataCopyExtParams wp{static_cast<uint16_t>(t.cin), static_cast<uint32_t>(k3 * sizeof(float)),
                             static_cast<uint32_t>((t.cout - 1) * k3 * sizeof(float)), 0, 0};
        DataCopyPad(wl, wGm[static_cast<uint64_t>(oc) * k3], wp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();

        LocalTensor<float> part = partBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<float> gath = gathBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        float s1 = 0.0f, s2 = 0.0f;
        uint64_t yBase = static_cast<uint64_t>(job) * plane;
        int32_t S = static_cast<int32_t>(t.stride);

        for (uint32_t zo = 0; zo < t.od; ++zo) {
            for (uint32_t yo = 0; yo < t.oh; ++yo) {
                Duplicate(part, 0.0f, t.ks * t.iwAlign + 8);
                for (uint32_t kd = 0; kd < t.ks; ++kd) {
                    int32_t vd = static_cast<int32_t>(zo + t.pad) - static_cast<int32_t>(kd);
                    if (vd < 0 || vd % S != 0 || vd / S >= static_cast<int32_t>(t.id)) continue;
                    uint32_t zi = vd / S;
                    for (uint32_t kh = 0; kh < t.ks; ++kh) {
                        int32_t vh = static_cast<int32_t>(yo + t.pad) - static_cast<int32_t>(kh);
                        if (vh < 0 || vh % S != 0 || vh / S >= static_cast<int32_t>(t.ih)) continue;
                        uint32_t yi = vh / S;
                        for (uint32_t ic = 0; ic < t.cin; ++ic) {
                            uint64_t src = (((static_cast<uint64_t>(b) * t.cin + ic) * t.id + zi) * t.ih + yi) * t.iw;
                            LocalTensor<float> row = rowQ.AllocTensor<float>();
                            DataCopyPad(row, xGm[src], DataCopyExtParams{1, static_cast<uint32_t>(t.iw * sizeof(float)), 0, 0, 0},
                                        DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                            rowQ.EnQue(row);
                            row = rowQ.DeQue<float>();
                            uint32_t wo = ic * t.k3Align + (kd * t.ks + kh) * t.ks;
                            for (uint32_t kw = 0; kw < t.ks; ++kw) {
                                Axpy(part[kw * t.iwAlign], row, wl.GetValue(wo + kw), t.iw);
                            }
                            rowQ.FreeTensor(row);
                        }
                    }
                }

                // scatter the K partial rows into the strided output row
                LocalTensor<float> res = outQ.AllocTensor<float>();
                Gather(res, part, off, 0U, t.ow);
                for (uint32_t kw = 1; kw < t.ks; ++kw) {
                    Gather(gath, part, off[kw * t.owAlign], 0U, t.ow);
                    Add(res, res, gath, t.ow);
                }
                ReduceSum(tmp, res, gath, t.ow);
                s1 += tmp.GetValue(0);
                Mul(gath, res, res, t.ow);
                ReduceSum(tmp, gath, tmp, t.ow);
                s2 += tmp.GetValue(0);
                outQ.EnQue(res);

                res = outQ.DeQue<float>();
                DataCopyPad(yGm[yBase + (static_cast<uint64_t>(zo) * t.oh + yo) * t.ow], res,
                            DataCopyExtParams{1, static_cast<uint32_t>(t.ow * sizeof(float)), 0, 0, 0});
                outQ.FreeTensor(res);
            }
        }

        // publish the plane statistics (one 32B slot per plane, no false sharing)
        LocalTensor<float> st = statBuf.Get<float>();
        Duplicate(st, 0.0f, 8);
        st.SetValue(0, s1);
        st.SetValue(1, s2);
        PipeBarrier<PIPE_ALL>();
        DataCopy(statGm[static_cast<uint64_t>(job) * 8], st, 8);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void RescalePlane(uint32_t job)
    {
        uint32_t oc = job % t.cout;

        // gather the N slots that belong to channel oc
        LocalTensor<float> st = statBuf.Get<float>();
        DataCopyExtParams sp{static_cast<uint16_t>(t.n), 32, static_cast<uint32_t>((t.cout - 1) * 32), 0, 0};
        DataCopyPad(st, statGm[static_cast<uint64_t>(oc) * 8], sp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();
        float tot1 = 0.0f, tot2 = 0.0f;
        for (uint32_t i = 0; i < t.n; ++i) {
            tot1 += st.GetValue(i * 8);
            tot2 += st.GetValue(i * 8 + 1);
        }
        float cnt = static_cast<float>(plane) * t.n;
        float mu = tot1 / cnt;
        float var = tot2 / cnt - mu * mu;
        var = var > 0.0f ? var : 0.0f;
        Duplicate(st, var + t.eps, 8);
        Sqrt(st, st, 8);
        float scale = gGm.GetValue(oc) / st.GetValue(0);
        // mean of this plane, from its own slot
        DataCopyPad(st, statGm[static_cast<uint64_t>(job) * 8], DataCopyExtParams{1, 32, 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();
        float planeMean = st.GetValue(0) / static_cast<float>(plane);
        float shift = -planeMean * scale;

        uint64_t base = static_cast<uint64_t>(job) * plane;
        for (uint64_t pos = 0; pos < plane; pos += t.chunk) {
            uint32_t len = static_cast<uint32_t>(plane - pos < t.chunk ? plane - pos : t.chunk);
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            LocalTensor<float> a = inQ2.AllocTensor<float>();
            DataCopyPad(a, yGm[base + pos], cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            inQ2.EnQue(a);
            a = inQ2.DeQue<float>();
            LocalTensor<float> o = outQ2.AllocTensor<float>();
            Muls(o, a, scale, len);
            Adds(o, o, shift, len);
            inQ2.FreeTensor(a);
            outQ2.EnQue(o);
            o = outQ2.DeQue<float>();
            DataCopyPad(yGm[base + pos], o, cp);
            outQ2.FreeTensor(o);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQ, inQ2;
    TQue<QuePosition::VECOUT, 2> outQ, outQ2;
    TBuf<TPosition::VECCALC> wBuf, partBuf, offBuf, gathBuf, tmpBuf, statBuf;
    GlobalTensor<float> xGm, wGm, gGm, yGm, statGm;
    UpConv3dBnCenterTilingData t;
    uint32_t k3, jobLo, jobHi;
    uint64_t plane;
};

extern "C" __global__ __aicore__ void upconv3d_bn_center(GM_ADDR x, GM_ADDR weight, GM_ADDR gamma, GM_ADDR y,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tl, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    UpConv3dBnCenterKernel op;
    op.Init(x, weight, gamma, y, usr, tl);
    op.Process();
}
