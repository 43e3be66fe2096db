#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = maxpool3d_k2( leaky( leaky(x) * m[c] ) )
// The pointwise part must run before pooling because m[c] may be negative.
class KernelLeakyMulLeakyMaxPool {
public:
    __aicore__ inline KernelLeakyMulLeakyMaxPool() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mult, GM_ADDR y,
                                const ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustomTilingData& t)
    {
        C = t.c; D = t.d; H = t.h; W = t.w;
        OD = t.od; OH = t.oh; OW = t.ow;
        wAlign = t.wAlign;
        rowsPerTile = t.rowsPerTile;
        tilesPerSlice = t.tilesPerSlice;
        numTiles = t.numTiles;
        slope = t.slope;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        mGm.SetGlobalBuffer((__gm__ float*)mult, C);

        planeElems = 2 * rowsPerTile * wAlign;             // rows of one depth slice in a tile
        uint32_t inElems = (2 * planeElems + 63) / 64 * 64;
        uint32_t rowMaxElems = (rowsPerTile * wAlign + 63) / 64 * 64;
        pipe.InitBuffer(inQ, BUFFER_NUM, inElems * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, rowMaxElems / 2 * sizeof(float));
        pipe.InitBuffer(rowMaxBuf, rowMaxElems * sizeof(float));
        pipe.InitBuffer(evenBuf, rowMaxElems / 2 * sizeof(float));
        pipe.InitBuffer(oddBuf, rowMaxElems / 2 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t nCores = AscendC::GetBlockNum();
        // round-robin over tiles keeps neighbouring cores on neighbouring memory
        for (uint32_t tile = AscendC::GetBlockIdx(); tile < numTiles; tile += nCores) {
            uint32_t part = tile % tilesPerSlice;
            uint32_t slice = tile / tilesPerSlice;   // nc * OD + od
            uint32_t od = slice % OD;
            uint32_t nc = slice / OD;
            uint32_t oh0 = part * rowsPerTile;
            uint32_t rows = (oh0 + rowsPerTile <= OH) ? rowsPerTile : (OH - oh0);
            float m = mGm.GetValue(nc % C);

            uint64_t src = (((uint64_t)nc * D + 2 * od) * H + 2 * oh0) * W;
            uint64_t dst = (((uint64_t)nc * OD + od) * OH + oh0) * OW;
            CopyIn(src, rows);
            Compute(rows, m);
            CopyOut(dst, rows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t src, uint32_t rows)
    {
        AscendC::LocalTensor<float> buf = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams prm;
        prm.blockCount = static_cast<uint16_t>(2 * rows);
        prm.blockLen = W * sizeof(float);
        prm.srcStride = 0;
        prm.dstStride = (wAlign - (W + 7) / 8 * 8) / 8;
        prm.rsv = 0;
        AscendC::DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(buf, xGm[src], prm, noPad);                        // depth 2*od
        AscendC::DataCopyPad(buf[planeElems], xGm[src + (uint64_t)H * W], prm, noPad); // depth 2*od+1
        inQ.EnQue(buf);
    }

    __aicore__ inline void Compute(uint32_t rows, float m)
    {
        AscendC::LocalTensor<float> buf = inQ.DeQue<float>();
        AscendC::LocalTensor<float> rowMax = rowMaxBuf.Get<float>();
        AscendC::LocalTensor<float> ev = evenBuf.Get<float>();
        AscendC::LocalTensor<float> od = oddBuf.Get<float>();
        AscendC::LocalTensor<float> res = outQ.AllocTensor<float>();

        uint32_t cnt = 2 * planeElems;
        // pointwise: leaky -> *m -> leaky over both depth slices at once
        AscendC::LeakyRelu(buf, buf, slope, cnt);
        AscendC::Muls(buf, buf, m, cnt);
        AscendC::LeakyRelu(buf, buf, slope, cnt);

        // depth max
        AscendC::Max(buf, buf, buf[planeElems], 2 * rows * wAlign);
        // height max
        for (uint32_t r = 0; r < rows; ++r) {
            AscendC::Max(rowMax[r * wAlign], buf[2 * r * wAlign], buf[(2 * r + 1) * wAlign], wAlign);
        }
        // width max: even lanes vs odd lanes
        uint32_t flat = rows * wAlign;
        uint64_t kept = 0;
        AscendC::GatherMaskParams gm;
        gm.src0BlockStride = 1;
        gm.repeatTimes = static_cast<uint16_t>((flat + 63) / 64);
        gm.src0RepeatStride = 8;
        gm.src1RepeatStride = 0;
        AscendC::GatherMask(ev, rowMax, 1, false, 0, gm, kept);
        AscendC::GatherMask(od, rowMax, 2, false, 0, gm, kept);
        AscendC::Max(res, ev, od, flat / 2);

        outQ.EnQue(res);
        inQ.FreeTensor(buf);
    }

    __aicore__ inline void CopyOut(uint64_t dst, uint32_t rows)
    {
        AscendC::LocalTensor<float> res = outQ.DeQue<float>();
        AscendC::DataCopyExtParams prm;
        prm.blockCount = static_cast<uint16_t>(rows);
        prm.blockLen = OW * sizeof(float);
        prm.srcStride = (wAlign / 2 - (OW + 7) / 8 * 8) / 8;
        prm.dstStride = 0;
        prm.rsv = 0;
        AscendC::DataCopyPad(yGm[dst], res, prm);
        outQ.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowMaxBuf, evenBuf, oddBuf;
    AscendC::GlobalTensor<float> xGm, yGm, mGm;
    uint32_t C, D, H, W, OD, OH, OW;
    uint32_t wAlign, rowsPerTile, tilesPerSlice, numTiles, planeElems;
    float slope;
};

extern "C" __global__ __aicore__ void conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom(
    GM_ADDR x, GM_ADDR multiplier, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLeakyMulLeakyMaxPool op;
    op.Init(x, multiplier, y, tilingData);
    op.Process();
}
