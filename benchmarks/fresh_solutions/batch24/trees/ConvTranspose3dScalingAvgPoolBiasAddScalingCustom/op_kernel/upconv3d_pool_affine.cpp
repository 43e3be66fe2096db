/*
 * Upconv3dPoolAffine kernel.
 *
 *   t   = conv_transpose3d(x, weight) + conv_bias[co]
 *   y   = post_scale * (avg_pool_{pool^3}(pre_scale * t) + channel_bias[co])
 *       = mulFactor * sum_{pool window} conv(x, w) + post_scale * (pre_scale * conv_bias + channel_bias)
 *
 * One unit produces a full pooled (ph x pw) slice at pooled depth index `pd` for one (n, co).
 * The few input depth slices that can reach that slice are staged in UB (slab), the weights of
 * channel co are cached per unit, the window sums are formed by the scalar unit and the affine
 * epilogue + dtype conversion run on the vector unit.
 */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class Upconv3dPoolAffineKernel {
public:
    __aicore__ inline Upconv3dPoolAffineKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR cb, GM_ADDR bb, GM_ADDR y,
                                const Upconv3dPoolAffineTilingData &tiling)
    {
        tl = tiling;
        k3 = tl.k * tl.k * tl.k;
        k3Align = (k3 + 15) / 16 * 16;
        hw = tl.h * tl.w;
        begin = GetBlockIdx() * tl.unitsPerCore;
        end = begin + tl.unitsPerCore > tl.units ? tl.units : begin + tl.unitsPerCore;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        cbGm.SetGlobalBuffer((__gm__ T *)cb);
        bbGm.SetGlobalBuffer((__gm__ T *)bb);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        uint32_t slabElems = tl.cin * tl.slabDepth * tl.planeStride;
        pipe.InitBuffer(slabQ, 1, slabElems * sizeof(T));
        pipe.InitBuffer(slabF, slabElems * sizeof(float));
        pipe.InitBuffer(wQ, 1, tl.cin * k3Align * sizeof(T));
        pipe.InitBuffer(wF, tl.cin * k3Align * sizeof(float));
        pipe.InitBuffer(accB, tl.outPlaneAlign * sizeof(float));
        pipe.InitBuffer(outQ, 1, tl.outPlaneAlign * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        int32_t lastCo = -1;
        for (uint32_t u = begin; u < end; ++u) {
            uint32_t pdI = u % tl.pd;
            uint32_t co = (u / tl.pd) % tl.cout;
            uint32_t n = u / (tl.pd * tl.cout);
            if (static_cast<int32_t>(co) != lastCo) {
                LoadWeights(co);
                lastCo = static_cast<int32_t>(co);
            }
            int32_t idLo, idHi;
            LoadSlab(n, pdI, idLo, idHi);
            PooledSlice(pdI, idLo, idHi);
            Epilogue(n, co, pdI);
        }
    }

private:
    __aicore__ inline int32_t CeilDiv(int32_t a, int32_t b) const
    {
        return a >= 0 ? (a + b - 1) / b : -((-a) / b);
    }

    __aicore__ inline void LoadWeights(uint32_t co)
    {
        // weight layout [Cin, Cout, K, K, K]: Cin blocks of k3 taps, Cout*k3 apart
        LocalTensor<T> wl = wQ.AllocTensor<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(tl.cin), static_cast<uint32_t>(k3 * sizeof(T)),
                             static_cast<uint32_t>((tl.cout - 1) * k3 * sizeof(T)),
                             static_cast<uint32_t>((k3Align * sizeof(T) - (k3 * sizeof(T) + 31) / 32 * 32) / 32), 0};
        DataCopyPad(wl, wGm[static_cast<uint64_t>(co) * k3], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        wQ.EnQue(wl);
        wl = wQ.DeQue<T>();
        LocalTensor<float> wf = wF.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(wf, wl, tl.cin * k3Align);
        } else {
            Cast(wf, wl, RoundMode::CAST_NONE, tl.cin * k3Align);
        }
        wQ.FreeTensor(wl);
        PipeBarrier<PIPE_ALL>();
    }

    // stage x[n, :, idLo..idHi, :, :] ; slices outside [0, D) are skipped by the compute loop
    __aicore__ inline void LoadSlab(uint32_t n, uint32_t pdI, int32_t &idLo, int32_t &idHi)
    {
        int32_t odLo = static_cast<int32_t>(pdI * tl.pool);
        int32_t odHi = odLo + static_cast<int32_t>(tl.pool) - 1;
        idLo = CeilDiv(odLo + static_cast<int32_t>(tl.pad) - static_cast<int32_t>(tl.k) + 1, tl.stride);
        idHi = (odHi + static_cast<int32_t>(tl.pad)) / static_cast<int32_t>(tl.stride);
        idLo = idLo < 0 ? 0 : idLo;
        idHi = idHi >= static_cast<int32_t>(tl.d) ? static_cast<int32_t>(tl.d) - 1 : idHi;

        LocalTensor<T> sl = slabQ.AllocTensor<T>();
        uint32_t depth = static_cast<uint32_t>(idHi - idLo + 1);
        DataCopyExtParams cp{static_cast<uint16_t>(depth), static_cast<uint32_t>(hw * sizeof(T)), 0,
                             static_cast<uint32_t>((tl.planeStride * sizeof(T) - (hw * sizeof(T) + 31) / 32 * 32) / 32), 0};
        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            uint64_t src = ((static_cast<uint64_t>(n) * tl.cin + ci) * tl.d + idLo) * hw;
            DataCopyPad(sl[ci * tl.slabDepth * tl.planeStride], xGm[src], cp, DataCopyPadExtParams<T>{false, 0, 0, 0});
        }
        slabQ.EnQue(sl);
        sl = slabQ.DeQue<T>();
        LocalTensor<float> sf = slabF.Get<float>();
        uint32_t total = tl.cin * tl.slabDepth * tl.planeStride;
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(sf, sl, total);
        } else {
            Cast(sf, sl, RoundMode::CAST_NONE, total);
        }
        slabQ.FreeTensor(sl);
        PipeBarrier<PIPE_ALL>();
    }

    // value of the bias-free transposed conv at (od, oh, ow), reading the staged slab
    __aicore__ inline float Point(int32_t od, int32_t oh, int32_t ow, int32_t idLo, int32_t idHi,
                                  const LocalTensor<float> &sf, const LocalTensor<float> &wf) const
    {
        const int32_t s = tl.stride, p = tl.pad, k = tl.k;
        float sum = 0.0f;
        for (int32_t kd = 0; kd < k; ++kd) {
            int32_t nd = od + p - kd;
            if (nd < 0 || nd % s) continue;
            int32_t id = nd / s;
            if (id < idLo || id > idHi) continue;
            for (int32_t kh = 0; kh < k; ++kh) {
                int32_t nh = oh + p - kh;
                if (nh < 0 || nh % s) continue;
                int32_t ih = nh / s;
                if (ih >= static_cast<int32_t>(tl.h)) continue;
                for (int32_t kw = 0; kw < k; ++kw) {
                    int32_t nw = ow + p - kw;
                    if (nw < 0 || nw % s) continue;
                    int32_t iw = nw / s;
                    if (iw >= static_cast<int32_t>(tl.w)) continue;
                    uint32_t tap = (kd * k + kh) * k + kw;
                    uint32_t off = (id - idLo) * tl.planeStride + ih * tl.w + iw;
                    for (uint32_t ci = 0; ci < tl.cin; ++ci) {
                        sum += sf.GetValue(ci * tl.slabDepth * tl.planeStride + off) * wf.GetValue(ci * k3Align + tap);
                    }
                }
            }
        }
        return sum;
    }

    __aicore__ inline void PooledSlice(uint32_t pdI, int32_t idLo, int32_t idHi)
    {
        LocalTensor<float> sf = slabF.Get<float>();
        LocalTensor<float> wf = wF.Get<float>();
        LocalTensor<float> acc = accB.Get<float>();
        const int32_t pool = tl.pool;
        for (uint32_t y = 0; y < tl.ph; ++y) {
            for (uint32_t x = 0; x < tl.pw; ++x) {
                float s = 0.0f;
                for (int32_t a = 0; a < pool; ++a) {
                    for (int32_t b = 0; b < pool; ++b) {
                        for (int32_t c = 0; c < pool; ++c) {
                            s += Point(pdI * pool + a, y * pool + b, x * pool + c, idLo, idHi, sf, wf);
                        }
                    }
                }
                acc.SetValue(y * tl.pw + x, s);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Epilogue(uint32_t n, uint32_t co, uint32_t pdI)
    {
        LocalTensor<float> acc = accB.Get<float>();
        uint32_t cnt = tl.ph * tl.pw;
        float shift = tl.scale2 * (tl.scale1 * static_cast<float>(cbGm.GetValue(co)) +
                                   static_cast<float>(bbGm.GetValue(co)));
        Muls(acc, acc, tl.mulFactor, cnt);
        PipeBarrier<PIPE_V>();
        Adds(acc, acc, shift, cnt);
        PipeBarrier<PIPE_V>();

        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(o, acc, tl.outPlaneAlign);
        } else {
            Cast(o, acc, RoundMode::CAST_ROUND, cnt);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        uint64_t dst = ((static_cast<uint64_t>(n) * tl.cout + co) * tl.pd + pdI) * cnt;
        DataCopyPad(yGm[dst], o, DataCopyExtParams{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> slabQ, wQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> slabF, wF, accB;
    GlobalTensor<T> xGm, wGm, cbGm, bbGm, yGm;
    Upconv3dPoolAffineTilingData tl;
    uint32_t k3, k3Align, hw, begin, end;
};

extern "C" __global__ __aicore__ void upconv3d_pool_affine(GM_ADDR x, GM_ADDR weight, GM_ADDR conv_bias,
                                                           GM_ADDR channel_bias, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Upconv3dPoolAffineKernel<DTYPE_X> op;
    op.Init(x, weight, conv_bias, channel_bias, y, tilingData);
    op.Process();
}
