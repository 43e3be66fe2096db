/*
 * GroupedDeconv2d — transposed 2-D convolution (NCHW) with groups, stride, padding, dilation.
 *
 *   y[n, g*CoG + o, oy, ox] = sum_{c in group g} sum_{p, q} x[n, c, iy, ix] * w[c, o, p, q]
 *   where oy = iy*sH - pH + p*dH and ox = ix*sW - pW + q*dW.
 *
 * Work unit = (image, group, block of output rows). Per unit:
 *   cube  : col[(o, p, q), (iy, ix)] = Wg^T x_g over the input rows the block can see
 *   vector: col2im as a gather — every output row is the sum over (p, q) of one col row,
 *           picked at ix = (ox + pW - q*dW) / sW when that division is exact (else zero).
 * Units own disjoint output rows, so no atomics are needed.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

template <typename T>
class GroupedDeconv2dKernel {
    using MA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using MB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using MC = matmul::MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    matmul::Matmul<MA, MB, MC, MC> mm;

    __aicore__ inline GroupedDeconv2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR usr, const GroupedDeconv2dTilingData &t,
                                TPipe *pipe)
    {
        p = t;
        cinG = p.cin / p.groups;
        coG = p.cout / p.groups;
        coKK = coG * p.kh * p.kw;
        colPitch = static_cast<uint64_t>(p.ihSpan) * p.w;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        colGm.SetGlobalBuffer((__gm__ T *)usr + static_cast<uint64_t>(GetBlockIdx()) * coKK * colPitch);

        pipe->InitBuffer(stageQ, 2, p.wPad * sizeof(T));
        pipe->InitBuffer(outQ, 2, p.owPad * sizeof(T));
        pipe->InitBuffer(tblBuf, p.kw * p.owPad * sizeof(uint32_t));
        pipe->InitBuffer(pickBuf, p.owPad * sizeof(T));
        pipe->InitBuffer(accBuf, p.owPad * sizeof(float));
        pipe->InitBuffer(cvtBuf, p.owPad * sizeof(float));
        BuildTables();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = GetBlockIdx(); u < p.units; u += GetBlockNum()) {
            uint32_t blk = u % p.blocksPerPlane;
            uint32_t g = (u / p.blocksPerPlane) % p.groups;
            uint32_t n = u / (p.blocksPerPlane * p.groups);
            uint32_t oh0 = blk * p.ohBlock;
            uint32_t oh1 = oh0 + p.ohBlock > p.oh ? p.oh : oh0 + p.ohBlock;  // exclusive

            // input rows reachable from [oh0, oh1)
            int32_t lo = static_cast<int32_t>(oh0 + p.ph) - static_cast<int32_t>((p.kh - 1) * p.dh);
            int32_t ihLo = lo <= 0 ? 0 : (lo + static_cast<int32_t>(p.sh) - 1) / static_cast<int32_t>(p.sh);
            int32_t ihHi = static_cast<int32_t>(oh1 - 1 + p.ph) / static_cast<int32_t>(p.sh);
            if (ihHi > static_cast<int32_t>(p.h) - 1) {
                ihHi = static_cast<int32_t>(p.h) - 1;
            }
            if (ihHi - ihLo + 1 > static_cast<int32_t>(p.ihSpan)) {
                ihHi = ihLo + static_cast<int32_t>(p.ihSpan) - 1;
            }
            bool any = ihHi >= ihLo;
            if (any) {
                Columns(n, g, static_cast<uint32_t>(ihLo), static_cast<uint32_t>(ihHi - ihLo + 1));
            }
            Fold(n, g, oh0, oh1, ihLo, ihHi, any);
        }
    }

private:
    // gather table per kernel column q: byte offset into the staged col row, or the zero slot
    __aicore__ inline void BuildTables()
    {
        LocalTensor<uint32_t> tbl = tblBuf.Get<uint32_t>();
        const uint32_t zeroSlot = p.w * sizeof(T);
        for (uint32_t q = 0; q < p.kw; ++q) {
            for (uint32_t ox = 0; ox < p.owPad; ++ox) {
                int32_t tpos = static_cast<int32_t>(ox + p.pw) - static_cast<int32_t>(q * p.dw);
                uint32_t off = zeroSlot;
                if (ox < p.ow && tpos >= 0 && tpos % static_cast<int32_t>(p.sw) == 0) {
                    uint32_t ix = static_cast<uint32_t>(tpos) / p.sw;
                    if (ix < p.w) {
                        off = ix * sizeof(T);
                    }
                }
                tbl.SetValue(q * p.owPad + ox, off);
            }
        }
    }

    __aicore__ inline void Columns(uint32_t n, uint32_t g, uint32_t ihLo, uint32_t rows)
    {
        uint64_t plane = static_cast<uint64_t>(p.h) * p.w;
        uint64_t xOff = (static_cast<uint64_t>(n) * p.cin + g * cinG) * plane + static_cast<uint64_t>(ihLo) * p.w;
        uint64_t wOff = static_cast<uint64_t>(g) * cinG * coKK;
        // A: weight block stored [cinG, coKK] -> used transposed; B: cinG planes, rows plane apart
        mm.SetOrgShape(coKK, static_cast<int>(plane), cinG, cinG, static_cast<int>(colPitch));
        mm.SetTensorA(wGm[wOff], true);
        mm.SetTensorB(xGm[xOff]);
        mm.SetTail(coKK, rows * p.w, cinG);
        mm.IterateAll(colGm);
        mm.End();
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Fold(uint32_t n, uint32_t g, uint32_t oh0, uint32_t oh1, int32_t ihLo, int32_t ihHi,
                                bool any)
    {
        LocalTensor<uint32_t> tbl = tblBuf.Get<uint32_t>();
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<T> pick = pickBuf.Get<T>();
        LocalTensor<float> cvt = cvtBuf.Get<float>();
        DataCopyExtParams rowIn{1, static_cast<uint32_t>(p.w * sizeof(T)), 0, 0, 0};
        DataCopyExtParams rowOut{1, static_cast<uint32_t>(p.ow * sizeof(T)), 0, 0, 0};
        uint8_t tailPad = static_cast<uint8_t>(p.wPad - p.w > 32 / sizeof(T) ? 32 / sizeof(T) - 1 : p.wPad - p.w);

        for (uint32_t o = 0; o < coG; ++o) {
            uint64_t yPlane = (static_cast<uint64_t>(n) * p.cout + g * coG + o) * p.oh * p.ow;
            for (uint32_t oy = oh0; oy < oh1; ++oy) {
                Duplicate(acc, 0.0f, p.owPad);
                for (uint32_t kr = 0; any && kr < p.kh; ++kr) {
                    int32_t tpos = static_cast<int32_t>(oy + p.ph) - static_cast<int32_t>(kr * p.dh);
                    if (tpos < 0 || tpos % static_cast<int32_t>(p.sh) != 0) {
                        continue;
                    }
                    int32_t iy = tpos / static_cast<int32_t>(p.sh);
                    if (iy < ihLo || iy > ihHi) {
                        continue;
                    }
                    for (uint32_t kc = 0; kc < p.kw; ++kc) {
                        uint64_t colRow = (static_cast<uint64_t>(o) * p.kh + kr) * p.kw + kc;
                        LocalTensor<T> st = stageQ.AllocTensor<T>();
                        DataCopyPadExtParams<T> pad{true, 0, tailPad, static_cast<T>(0)};
                        DataCopyPad(st, colGm[colRow * colPitch + static_cast<uint64_t>(iy - ihLo) * p.w], rowIn, pad);
                        st.SetValue(p.w, static_cast<T>(0));  // zero slot for non-contributing columns
                        stageQ.EnQue(st);
                        st = stageQ.DeQue<T>();
                        Gather(pick, st, tbl[kc * p.owPad], 0, p.owPad);
                        if constexpr (sizeof(T) == 2) {
                            Cast(cvt, pick, RoundMode::CAST_NONE, p.owPad);
                            Add(acc, acc, cvt, p.owPad);
                        } else {
                            Add(acc, acc, pick, p.owPad);
                        }
                        stageQ.FreeTensor(st);
                    }
                }
                LocalTensor<T> ov = outQ.AllocTensor<T>();
                if constexpr (sizeof(T) == 2) {
                    Cast(ov, acc, RoundMode::CAST_ROUND, p.owPad);
                } else {
                    DataCopy(ov, acc, p.owPad);
                }
                outQ.EnQue(ov);
                ov = outQ.DeQue<T>();
                DataCopyPad(yGm[yPlane + static_cast<uint64_t>(oy) * p.ow], ov, rowOut);
                outQ.FreeTensor(ov);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    GroupedDeconv2dTilingData p;
    uint32_t cinG = 0, coG = 0, coKK = 0;
    uint64_t colPitch = 0;
    GlobalTensor<T> xGm, wGm, yGm, colGm;
    TQue<QuePosition::VECIN, 2> stageQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> tblBuf, pickBuf, accBuf, cvtBuf;
};

extern "C" __global__ __aicore__ void grouped_deconv2d(GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    TPipe pipe;
    GroupedDeconv2dKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.colMm);
    op.Init(x, weight, y, usr, td, &pipe);
    op.Process();
}
