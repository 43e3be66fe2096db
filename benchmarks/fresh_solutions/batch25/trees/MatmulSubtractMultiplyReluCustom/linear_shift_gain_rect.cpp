// linear_shift_gain_rect
//   out = max(0, (x @ W^T + b - shift) * gain)
//
// The cube unit produces baseM x baseN tiles of x @ W^T + b (Matmul API,
// B transposed, bias fused). Every tile is pulled into UB with GetTensorC and
// the epilogue (shift, gain, ReLU) is done by the vector unit before the tile
// is written to GM, so the pre-activation matrix never goes to global memory.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

struct LinearShiftGainRectTiling {
    float shift;          // value subtracted after the linear layer
    float gain;           // multiplier applied after the shift
    uint32_t pad0;
    uint32_t pad1;
    TCubeTiling mm;
};

using XType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using WType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using YType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class LinearShiftGainRect {
public:
    __aicore__ inline LinearShiftGainRect() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const LinearShiftGainRectTiling &t,
                                TPipe *p)
    {
        cfg = t.mm;
        shift = t.shift;
        gain = t.gain;
        pipe = p;

        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), (uint64_t)cfg.M * cfg.Ka);
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(w), (uint64_t)cfg.N * cfg.Kb);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), cfg.N);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), (uint64_t)cfg.M * cfg.N);

        // which singleCoreM x singleCoreN block of the output this core owns
        uint32_t blocksAlongM = (cfg.M + cfg.singleCoreM - 1) / cfg.singleCoreM;
        uint32_t id = GetBlockIdx();
        blkM = id % blocksAlongM;
        blkN = id / blocksAlongM;
        blockBase = (uint64_t)blkM * cfg.singleCoreM * cfg.N + (uint64_t)blkN * cfg.singleCoreN;

        uint32_t tileBytes = cfg.baseM * cfg.baseN * sizeof(float);
        pipe->InitBuffer(accQ, 2, tileBytes);
        pipe->InitBuffer(resQ, 2, tileBytes);
    }

    template <typename MM>
    __aicore__ inline void Process(MM &mm)
    {
        if (blkN * cfg.singleCoreN >= (uint32_t)cfg.N) {
            return;
        }
        mm.SetTensorA(xGm[(uint64_t)blkM * cfg.singleCoreM * cfg.Ka]);
        mm.SetTensorB(wGm[(uint64_t)blkN * cfg.singleCoreN * cfg.Kb], true);
        mm.SetBias(bGm[blkN * cfg.singleCoreN]);

        uint32_t tileIdx = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<float> acc = accQ.AllocTensor<float>();
            mm.template GetTensorC<true>(acc, false, true);
            accQ.EnQue(acc);
            Epilogue();
            WriteTile(tileIdx++);
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue()
    {
        LocalTensor<float> acc = accQ.DeQue<float>();
        LocalTensor<float> res = resQ.AllocTensor<float>();
        uint32_t cnt = cfg.baseM * cfg.baseN;
        Adds(res, acc, -shift, cnt);
        Muls(res, res, gain, cnt);
        Relu(res, res, cnt);
        accQ.FreeTensor(acc);
        resQ.EnQue(res);
    }

    // tiles come out M-fastest inside this core's block
    __aicore__ inline void WriteTile(uint32_t idx)
    {
        LocalTensor<float> res = resQ.DeQue<float>();
        uint32_t tilesM = cfg.singleCoreM / cfg.baseM;
        uint32_t tm = idx % tilesM;
        uint32_t tn = idx / tilesM;
        uint64_t dst = blockBase + (uint64_t)tm * cfg.baseM * cfg.N + (uint64_t)tn * cfg.baseN;
        DataCopyParams cp;
        cp.blockCount = static_cast<uint16_t>(cfg.baseM);
        cp.blockLen = static_cast<uint16_t>(cfg.baseN * sizeof(float) / 32);
        cp.srcStride = 0;
        cp.dstStride = static_cast<uint16_t>((cfg.N - cfg.baseN) * sizeof(float) / 32);
        DataCopy(yGm[dst], res, cp);
        resQ.FreeTensor(res);
    }

    TPipe *pipe = nullptr;
    TQue<QuePosition::VECIN, 2> accQ;
    TQue<QuePosition::VECOUT, 2> resQ;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    TCubeTiling cfg;
    uint32_t blkM = 0, blkN = 0;
    uint64_t blockBase = 0;
    float shift = 0.0f, gain = 1.0f;
};

extern "C" __global__ __aicore__ void linear_shift_gain_rect(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }

    LinearShiftGainRectTiling t;
    {
        uint32_t *d = reinterpret_cast<uint32_t *>(&t);
        __gm__ uint32_t *s = reinterpret_cast<__gm__ uint32_t *>(tiling);
        for (uint32_t i = 0; i < sizeof(t) / sizeof(uint32_t); ++i) {
            d[i] = s[i];
        }
    }

    TPipe pipe;
    Matmul<XType, WType, YType, BType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.mm);

    LinearShiftGainRect op;
    op.Init(x, w, bias, y, t, &pipe);
    op.Process(mm);
}
