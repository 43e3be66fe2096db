/*
 * Conv3x3ReluPool — the VGG feature-extractor layer:
 *     y = [maxpool2x2] ( relu( conv3x3_pad1(x, weight) + bias ) )
 *
 * Implicit GEMM per block of `blockRows` output rows of one image:
 *   im2col (with the zero border) -> workspace, then Matmul  weight[Cout, 9*Cin] x col[9*Cin, rows*W].
 * Without pooling the GEMM writes straight into y and the epilogue applies bias + ReLU in place.
 * With pooling the GEMM writes into a per-worker scratch block, and the epilogue does
 *   vertical max (even/odd rows loaded with strided DMA) -> horizontal max (GatherMask even/odd lanes)
 *   -> bias -> ReLU, which equals pooling after the activation because both are monotone per channel.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
class Conv3x3ReluPoolKernel {
    using MT = MatmulType<TPosition::GM, CubeFormat::ND, T>;

public:
    Matmul<MT, MT, MT, MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR ws,
                                const Conv3x3ReluPoolTilingData &td, TPipe *pipe)
    {
        n_ = td.batch; cin_ = td.cin; cout_ = td.cout; h_ = td.height; w_ = td.width;
        pool_ = td.withPool != 0;
        rows_ = td.blockRows;
        blocks_ = td.blocksPerImage;
        pitch_ = td.rowPitch;
        kdim_ = cin_ * 9;

        xGm_.SetGlobalBuffer((__gm__ T *)x);
        wGm_.SetGlobalBuffer((__gm__ T *)w);
        bGm_.SetGlobalBuffer((__gm__ T *)b);
        yGm_.SetGlobalBuffer((__gm__ T *)y);

        id_ = GetBlockIdx();
        nWorkers_ = GetBlockNum() * GetTaskRation();
        uint64_t slice = td.colSlice + td.convSlice;
        __gm__ T *mine = (__gm__ T *)ws + slice * id_;
        colGm_.SetGlobalBuffer(mine, td.colSlice);
        convGm_.SetGlobalBuffer(mine + td.colSlice, td.convSlice);

        uint32_t bufElems = rows_ * pitch_;
        pipe->InitBuffer(ioQue_, 2, bufElems * sizeof(T));
        pipe->InitBuffer(oddBuf_, bufElems * sizeof(T));
        pipe->InitBuffer(gatherBuf_, bufElems * sizeof(T));
        pipe->InitBuffer(zeroBuf_, rows_ * pitch_ * sizeof(T));
        LocalTensor<T> z = zeroBuf_.Get<T>();
        Duplicate(z, static_cast<T>(0), rows_ * pitch_);
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t job = id_; job < n_ * blocks_; job += nWorkers_) {
            uint32_t img = job / blocks_;
            uint32_t r0 = (job % blocks_) * rows_;
            uint32_t rows = (r0 + rows_ > h_) ? h_ - r0 : rows_;
            BuildColumns(img, r0, rows);
            RunGemm(img, r0, rows);
            if (pool_) {
                PoolEpilogue(img, r0, rows);
            } else {
                PlainEpilogue(img, r0, rows);
            }
        }
    }

private:
    // col[(c*3 + i)*3 + j, r*W + ow] = x[img, c, r0 + r + i - 1, ow + j - 1], zero outside the image
    __aicore__ inline void BuildColumns(uint32_t img, uint32_t r0, uint32_t rows)
    {
        const uint32_t cols = rows * w_;
        LocalTensor<T> zero = zeroBuf_.Get<T>();
        for (uint32_t c = 0; c < cin_; ++c) {
            const uint64_t plane = (static_cast<uint64_t>(img) * cin_ + c) * h_ * w_;
            for (uint32_t i = 0; i < 3; ++i) {
                // valid block rows r satisfy 0 <= r0 + r + i - 1 < H
                int32_t first = 1 - static_cast<int32_t>(r0) - static_cast<int32_t>(i);
                uint32_t rBeg = first > 0 ? static_cast<uint32_t>(first) : 0;
                int32_t lastEx = static_cast<int32_t>(h_) + 1 - static_cast<int32_t>(r0) - static_cast<int32_t>(i);
                uint32_t rEnd = lastEx < static_cast<int32_t>(rows) ? static_cast<uint32_t>(lastEx) : rows;
                for (uint32_t j = 0; j < 3; ++j) {
                    const uint64_t kRow = (static_cast<uint64_t>(c) * 3 + i) * 3 + j;
                    GlobalTensor<T> dst = colGm_[kRow * cols];
                    if (rBeg > 0) {
                        DataCopyPad(dst, zero, DataCopyExtParams(1, rBeg * w_ * sizeof(T), 0, 0, 0));
                    }
                    if (rEnd < rows) {
                        DataCopyPad(dst[static_cast<uint64_t>(rEnd) * w_], zero,
                                    DataCopyExtParams(1, (rows - rEnd) * w_ * sizeof(T), 0, 0, 0));
                    }
                    if (rEnd <= rBeg) {
                        continue;
                    }
                    uint16_t cnt = static_cast<uint16_t>(rEnd - rBeg);
                    uint64_t srcRow = plane + static_cast<uint64_t>(r0 + rBeg + i - 1) * w_;
                    // j = 0 shifts right by one (zero on the left), j = 2 shifts left (zero on the right)
                    uint32_t len = (j == 1) ? w_ : w_ - 1;
                    uint64_t srcOff = srcRow + (j == 2 ? 1 : 0);
                    uint8_t lpad = (j == 0) ? 1 : 0;
                    uint8_t rpad = (j == 2) ? 1 : 0;
                    LocalTensor<T> buf = ioQue_.AllocTensor<T>();
                    DataCopyPad(buf, xGm_[srcOff],
                                DataCopyExtParams(cnt, len * sizeof(T), (w_ - len) * sizeof(T), 0, 0),
                                DataCopyPadExtParams<T>(true, lpad, rpad, static_cast<T>(0)));
                    ioQue_.EnQue(buf);
                    buf = ioQue_.DeQue<T>();
                    DataCopyPad(dst[static_cast<uint64_t>(rBeg) * w_], buf,
                                DataCopyExtParams(cnt, w_ * sizeof(T), 0, 0, 0));
                    ioQue_.FreeTensor(buf);
                }
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void RunGemm(uint32_t img, uint32_t r0, uint32_t rows)
    {
        const uint32_t cols = rows * w_;
        mm.SetSingleShape(cout_, cols, kdim_);
        mm.SetTensorA(wGm_);
        mm.SetTensorB(colGm_);
        if (pool_) {
            mm.SetOrgShape(cout_, cols, kdim_);
            mm.IterateAll(convGm_);
        } else {
            mm.SetOrgShape(cout_, cols, kdim_, kdim_, h_ * w_);
            mm.IterateAll(yGm_[static_cast<uint64_t>(img) * cout_ * h_ * w_ + static_cast<uint64_t>(r0) * w_]);
        }
        mm.End();
    }

    __aicore__ inline void PlainEpilogue(uint32_t img, uint32_t r0, uint32_t rows)
    {
        const uint32_t cnt = rows * w_;
        for (uint32_t co = 0; co < cout_; ++co) {
            const T bias = bGm_.GetValue(co);
            uint64_t off = (static_cast<uint64_t>(img) * cout_ + co) * h_ * w_ + static_cast<uint64_t>(r0) * w_;
            LocalTensor<T> v = ioQue_.AllocTensor<T>();
            DataCopyPad(v, yGm_[off], DataCopyExtParams(1, cnt * sizeof(T), 0, 0, 0),
                        DataCopyPadExtParams<T>(false, 0, 0, static_cast<T>(0)));
            ioQue_.EnQue(v);
            v = ioQue_.DeQue<T>();
            Adds(v, v, bias, cnt);
            Relu(v, v, cnt);
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(e);
            WaitFlag<HardEvent::V_MTE3>(e);
            DataCopyPad(yGm_[off], v, DataCopyExtParams(1, cnt * sizeof(T), 0, 0, 0));
            ioQue_.FreeTensor(v);
        }
    }

    __aicore__ inline void PoolEpilogue(uint32_t img, uint32_t r0, uint32_t rows)
    {
        const uint32_t cols = rows * w_;
        const uint32_t pr = rows / 2;              // pooled rows in this block
        const uint32_t ow = w_ / 2;
        const uint32_t ho = h_ / 2;
        const uint32_t span = pr * pitch_;         // elements covered by the strided row loads
        const uint32_t rowBlk = (w_ * sizeof(T) + 31) / 32;
        const uint32_t gapBlk = pitch_ * sizeof(T) / 32 - rowBlk;
        DataCopyExtParams loadPrm(static_cast<uint16_t>(pr), w_ * sizeof(T), w_ * sizeof(T), gapBlk, 0);
        const uint32_t halfPitchBlk = pitch_ / 2 * sizeof(T) / 32;
        const uint32_t outBlk = (ow * sizeof(T) + 31) / 32;
        DataCopyExtParams storePrm(static_cast<uint16_t>(pr), ow * sizeof(T), halfPitchBlk - outBlk, 0, 0);
        const uint16_t repeats = static_cast<uint16_t>((span * sizeof(T) + 255) / 256);

        for (uint32_t co = 0; co < cout_; ++co) {
            const T bias = bGm_.GetValue(co);
            LocalTensor<T> even = ioQue_.AllocTensor<T>();
            LocalTensor<T> odd = oddBuf_.Get<T>();
            DataCopyPad(even, convGm_[static_cast<uint64_t>(co) * cols], loadPrm,
                        DataCopyPadExtParams<T>(false, 0, 0, static_cast<T>(0)));
            DataCopyPad(odd, convGm_[static_cast<uint64_t>(co) * cols + w_], loadPrm,
                        DataCopyPadExtParams<T>(false, 0, 0, static_cast<T>(0)));
            ioQue_.EnQue(even);
            even = ioQue_.DeQue<T>();

            Max(even, even, odd, span);                         // vertical 2:1
            LocalTensor<T> lanes = gatherBuf_.Get<T>();
            uint64_t kept = 0;
            GatherMask(lanes, even, 1, false, 0, GatherMaskParams{1, repeats, 8, 0}, kept);   // even columns
            GatherMask(odd, even, 2, false, 0, GatherMaskParams{1, repeats, 8, 0}, kept);     // odd columns
            Max(lanes, lanes, odd, span / 2);                   // horizontal 2:1
            Adds(lanes, lanes, bias, span / 2);
            Relu(lanes, lanes, span / 2);

            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(e);
            WaitFlag<HardEvent::V_MTE3>(e);
            uint64_t dst = ((static_cast<uint64_t>(img) * cout_ + co) * ho + r0 / 2) * ow;
            DataCopyPad(yGm_[dst], lanes, storePrm);
            event_t back = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_V));
            SetFlag<HardEvent::MTE3_V>(back);
            WaitFlag<HardEvent::MTE3_V>(back);
            ioQue_.FreeTensor(even);
        }
    }

    TQue<QuePosition::VECIN, 2> ioQue_;
    TBuf<TPosition::VECCALC> oddBuf_, gatherBuf_, zeroBuf_;
    GlobalTensor<T> xGm_, wGm_, bGm_, yGm_, colGm_, convGm_;
    uint32_t n_, cin_, cout_, h_, w_, rows_, blocks_, pitch_, kdim_;
    uint32_t id_, nWorkers_;
    bool pool_;
};

extern "C" __global__ __aicore__ void conv3x3_relu_pool(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    TPipe pipe;
    Conv3x3ReluPoolKernel<DTYPE_X> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mmTiling);
    op.Init(x, weight, bias, y, usr, td, &pipe);
    op.Process();
}
