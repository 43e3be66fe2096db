/**
 * Conv2dAffineAct: y = act(conv2d(x, w) * scale[c] + shift[c] (+ residual))
 *
 * This is the building block of residual image classifiers: every convolution followed by an
 * inference batch-norm (folded into scale/shift), optionally the shortcut addition, and ReLU.
 *
 * Work decomposition: one work row = (image, block of output channels, output row). For a row,
 * every (input channel, kernel row) pair loads one input row, then each kernel column becomes a
 * strided view of that row through a byte-offset Gather (stride and padding live in the offset
 * table, out-of-image taps read a zero slot). The gathered vectors are shared by all output
 * channels of the block, which accumulate them with Axpy.
 */
#include "kernel_operator.h"

using namespace AscendC;

class Conv2dAffineActKernel {
public:
    __aicore__ inline Conv2dAffineActKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR scale, GM_ADDR shift, GM_ADDR res, GM_ADDR y,
                                const Conv2dAffineActTiling &td)
    {
        cfg = td;
        taps = cfg.kH * cfg.kW;
        tapsAlign = (taps + 7) / 8 * 8;
        uint32_t lo = GetBlockIdx() * cfg.rowsPerCore;
        rowLo = lo < cfg.rowsTotal ? lo : cfg.rowsTotal;
        rowHi = rowLo + cfg.rowsPerCore < cfg.rowsTotal ? rowLo + cfg.rowsPerCore : cfg.rowsTotal;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        scaleGm.SetGlobalBuffer((__gm__ float *)scale);
        shiftGm.SetGlobalBuffer((__gm__ float *)shift);
        if (cfg.hasResidual) {
            resGm.SetGlobalBuffer((__gm__ float *)res);
        }
        yGm.SetGlobalBuffer((__gm__ float *)y);

        pipe.InitBuffer(rowQue, 2, (cfg.inWAlign + 8) * sizeof(float));
        pipe.InitBuffer(wQue, 2, cfg.ocBlock * tapsAlign * sizeof(float));
        pipe.InitBuffer(resQue, 1, cfg.ocBlock * cfg.outWAlign * sizeof(float));
        pipe.InitBuffer(outQue, 1, cfg.ocBlock * cfg.outWAlign * sizeof(float));
        pipe.InitBuffer(accTbuf, cfg.ocBlock * cfg.outWAlign * sizeof(float));
        pipe.InitBuffer(colTbuf, cfg.kW * cfg.outWAlign * sizeof(float));
        pipe.InitBuffer(offTbuf, cfg.kW * cfg.outWAlign * sizeof(uint32_t));
        MakeOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowLo; r < rowHi; ++r) {
            uint32_t yo = r % cfg.outH;
            uint32_t rest = r / cfg.outH;
            uint32_t blk = rest % cfg.ocBlocks;
            uint32_t img = rest / cfg.ocBlocks;
            uint32_t oc0 = blk * cfg.ocBlock;
            uint32_t ocN = cfg.outC - oc0 < cfg.ocBlock ? cfg.outC - oc0 : cfg.ocBlock;
            Accumulate(img, oc0, ocN, yo);
            Epilogue(img, oc0, ocN, yo);
        }
    }

private:
    __aicore__ inline void MakeOffsets()
    {
        LocalTensor<uint32_t> offs = offTbuf.Get<uint32_t>();
        const uint32_t zeroSlot = cfg.inWAlign * sizeof(float);
        for (uint32_t kx = 0; kx < cfg.kW; ++kx) {
            for (uint32_t xo = 0; xo < cfg.outWAlign; ++xo) {
                int32_t xi = static_cast<int32_t>(xo * cfg.stride + kx) - static_cast<int32_t>(cfg.pad);
                bool inside = xo < cfg.outW && xi >= 0 && xi < static_cast<int32_t>(cfg.inW);
                offs.SetValue(kx * cfg.outWAlign + xo, inside ? static_cast<uint32_t>(xi) * 4U : zeroSlot);
            }
        }
    }

    __aicore__ inline void Accumulate(uint32_t img, uint32_t oc0, uint32_t ocN, uint32_t yo)
    {
        LocalTensor<float> acc = accTbuf.Get<float>();
        LocalTensor<float> cols = colTbuf.Get<float>();
        LocalTensor<uint32_t> offs = offTbuf.Get<uint32_t>();
        Duplicate(acc, 0.0f, ocN * cfg.outWAlign);

        for (uint32_t ic = 0; ic < cfg.inC; ++ic) {
            // weights [oc0 .. oc0+ocN) x ic x kH x kW; one padded row of taps per output channel
            LocalTensor<float> wl = wQue.AllocTensor<float>();
            DataCopyExtParams wcp{static_cast<uint16_t>(ocN), static_cast<uint32_t>(taps * sizeof(float)),
                                  static_cast<uint32_t>((cfg.inC - 1) * taps * sizeof(float)), 0, 0};
            DataCopyPad(wl, wGm[(static_cast<uint64_t>(oc0) * cfg.inC + ic) * taps], wcp,
                        DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            wQue.EnQue(wl);
            wl = wQue.DeQue<float>();

            for (uint32_t ky = 0; ky < cfg.kH; ++ky) {
                int32_t yi = static_cast<int32_t>(yo * cfg.stride + ky) - static_cast<int32_t>(cfg.pad);
                if (yi < 0 || yi >= static_cast<int32_t>(cfg.inH)) {
                    continue;   // zero padding row contributes nothing
                }
                LocalTensor<float> line = rowQue.AllocTensor<float>();
                uint64_t src = ((static_cast<uint64_t>(img) * cfg.inC + ic) * cfg.inH + yi) * cfg.inW;
                DataCopyPad(line, xGm[src], DataCopyExtParams{1, static_cast<uint32_t>(cfg.inW * sizeof(float)), 0, 0, 0},
                            DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                rowQue.EnQue(line);
                line = rowQue.DeQue<float>();
                Duplicate(line[cfg.inWAlign], 0.0f, 8);            // zero slot for padded taps

                for (uint32_t kx = 0; kx < cfg.kW; ++kx) {
                    Gather(cols[kx * cfg.outWAlign], line, offs[kx * cfg.outWAlign], 0U, cfg.outW);
                }
                rowQue.FreeTensor(line);

                for (uint32_t o = 0; o < ocN; ++o) {
                    uint32_t wb = o * tapsAlign + ky * cfg.kW;
                    for (uint32_t kx = 0; kx < cfg.kW; ++kx) {
                        Axpy(acc[o * cfg.outWAlign], cols[kx * cfg.outWAlign], wl.GetValue(wb + kx), cfg.outW);
                    }
                }
            }
            wQue.FreeTensor(wl);
        }
    }

    __aicore__ inline void Epilogue(uint32_t img, uint32_t oc0, uint32_t ocN, uint32_t yo)
    {
        LocalTensor<float> acc = accTbuf.Get<float>();
        uint64_t planeSz = static_cast<uint64_t>(cfg.outH) * cfg.outW;
        uint64_t dst = (static_cast<uint64_t>(img) * cfg.outC + oc0) * planeSz + static_cast<uint64_t>(yo) * cfg.outW;
        DataCopyExtParams rowsCp{static_cast<uint16_t>(ocN), static_cast<uint32_t>(cfg.outW * sizeof(float)),
                                 static_cast<uint32_t>((planeSz - cfg.outW) * sizeof(float)), 0, 0};

        LocalTensor<float> out = outQue.AllocTensor<float>();
        for (uint32_t o = 0; o < ocN; ++o) {
            float sc = scaleGm.GetValue(oc0 + o);
            float sh = shiftGm.GetValue(oc0 + o);
            Muls(out[o * cfg.outWAlign], acc[o * cfg.outWAlign], sc, cfg.outWAlign);
            Adds(out[o * cfg.outWAlign], out[o * cfg.outWAlign], sh, cfg.outWAlign);
        }
        if (cfg.hasResidual) {
            LocalTensor<float> rl = resQue.AllocTensor<float>();
            DataCopyExtParams inCp{static_cast<uint16_t>(ocN), static_cast<uint32_t>(cfg.outW * sizeof(float)),
                                   static_cast<uint32_t>((planeSz - cfg.outW) * sizeof(float)), 0, 0};
            DataCopyPad(rl, resGm[dst], inCp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            resQue.EnQue(rl);
            rl = resQue.DeQue<float>();
            Add(out, out, rl, ocN * cfg.outWAlign);
            resQue.FreeTensor(rl);
        }
        if (cfg.applyRelu) {
            Relu(out, out, ocN * cfg.outWAlign);
        }
        outQue.EnQue(out);
        out = outQue.DeQue<float>();
        DataCopyPad(yGm[dst], out, rowsCp);
        outQue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> rowQue, wQue;
    TQue<QuePosition::VECIN, 1> resQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> accTbuf, colTbuf, offTbuf;
    GlobalTensor<float> xGm, wGm, scaleGm, shiftGm, resGm, yGm;
    Conv2dAffineActTiling cfg;
    uint32_t taps, tapsAlign, rowLo, rowHi;
};

extern "C" __global__ __aicore__ void conv2d_affine_act(GM_ADDR x, GM_ADDR weight, GM_ADDR scale, GM_ADDR shift,
                                                        GM_ADDR residual, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Conv2dAffineActKernel k;
    k.Init(x, weight, scale, shift, residual, y, td);
    k.Process();
}
