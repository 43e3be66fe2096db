#include "kernel_operator.h"

// GRU cell (PyTorch gate order r, z, n):
//   r  = sigmoid(gi_r + gh_r)
//   z  = sigmoid(gi_z + gh_z)
//   n  = tanh(gi_n + r * gh_n)
//   h' = (1 - z) * n + z * h  =  n + z * (h - n)

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOTS = 7;   // gi_r gi_z gi_n gh_r gh_z gh_n h

class KernelGruCell {
public:
    __aicore__ inline KernelGruCell() {}
    __aicore__ inline void Init(GM_ADDR gi, GM_ADDR gh, GM_ADDR h, GM_ADDR hNew, const GruHiddenCustomTilingData& td)
    {
        hidden = td.hidden;
        chunk = td.chunkLen;
        chunksPerRow = td.chunksPerRow;
        first = AscendC::GetBlockIdx() * td.unitsPerCore;
        last = first + td.unitsPerCore;
        if (last > td.totalUnits) {
            last = td.totalUnits;
        }

        giGm.SetGlobalBuffer((__gm__ float*)gi);
        ghGm.SetGlobalBuffer((__gm__ float*)gh);
        hGm.SetGlobalBuffer((__gm__ float*)h);
        outGm.SetGlobalBuffer((__gm__ float*)hNew);

        pipe.InitBuffer(inQ, BUFFER_NUM, SLOTS * chunk * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, chunk * sizeof(float));
        pipe.InitBuffer(tmpBuf, 3 * chunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t u = first; u < last; ++u) {
            uint32_t row = u / chunksPerRow;
            uint32_t c0 = (u % chunksPerRow) * chunk;
            uint32_t len = (hidden - c0) < chunk ? (hidden - c0) : chunk;
            CopyIn(row, c0, len);
            Compute(len);
            CopyOut(row, c0, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> buf = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        uint64_t gateRow = (uint64_t)row * 3 * hidden;
        for (uint32_t g = 0; g < 3; ++g) {
            AscendC::DataCopyPad(buf[g * chunk], giGm[gateRow + g * hidden + c0], cp, pad);
            AscendC::DataCopyPad(buf[(3 + g) * chunk], ghGm[gateRow + g * hidden + c0], cp, pad);
        }
        AscendC::DataCopyPad(buf[6 * chunk], hGm[(uint64_t)row * hidden + c0], cp, pad);
        inQ.EnQue(buf);
    }

    // out = 1 / (1 + exp(-x)), in place on x
    __aicore__ inline void SigmoidInPlace(AscendC::LocalTensor<float>& x, uint32_t len)
    {
        AscendC::Muls(x, x, -1.0f, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(x, x, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(x, x, 1.0f, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Reciprocal(x, x, len);
        AscendC::PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<float> buf = inQ.DeQue<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::LocalTensor<float> r = tmp;
        AscendC::LocalTensor<float> z = tmp[chunk];
        AscendC::LocalTensor<float> n = tmp[2 * chunk];

        AscendC::LocalTensor<float> giR = buf;
        AscendC::LocalTensor<float> giZ = buf[chunk];
        AscendC::LocalTensor<float> giN = buf[2 * chunk];
        AscendC::LocalTensor<float> ghR = buf[3 * chunk];
        AscendC::LocalTensor<float> ghZ = buf[4 * chunk];
        AscendC::LocalTensor<float> ghN = buf[5 * chunk];
        AscendC::LocalTensor<float> hPrev = buf[6 * chunk];

        AscendC::Add(r, giR, ghR, len);
        AscendC::Add(z, giZ, ghZ, len);
        AscendC::PipeBarrier<PIPE_V>();
        SigmoidInPlace(r, len);
        SigmoidInPlace(z, len);

        // n = tanh(giN + r*ghN); tanh(v) = 2*sigmoid(2v) - 1
        AscendC::Mul(n, r, ghN, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Add(n, n, giN, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(n, n, 2.0f, len);
        AscendC::PipeBarrier<PIPE_V>();
        SigmoidInPlace(n, len);
        AscendC::Muls(n, n, 2.0f, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(n, n, -1.0f, len);
        AscendC::PipeBarrier<PIPE_V>();

        // h' = n + z * (h - n)
        AscendC::LocalTensor<float> out = outQ.AllocTensor<float>();
        AscendC::Sub(out, hPrev, n, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(out, out, z, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Add(out, out, n, len);

        outQ.EnQue(out);
        inQ.FreeTensor(buf);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> out = outQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(outGm[(uint64_t)row * hidden + c0], out, cp);
        outQ.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> giGm, ghGm, hGm, outGm;
    uint32_t hidden, chunk, chunksPerRow, first, last;
};

extern "C" __global__ __aicore__ void gru_hidden_custom(GM_ADDR gi, GM_ADDR gh, GM_ADDR h, GM_ADDR h_new,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelGruCell op;
    op.Init(gi, gh, h, h_new, tiling_data);
    op.Process();
}
