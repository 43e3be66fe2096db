project_json_src='''
[
    {
        "op": "FrobeniusNormCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FrobeniusNormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, blockLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FrobeniusNormCustom, FrobeniusNormCustomTilingData)
}
"""

host_operator_src="""
#include "frobenius_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 8192;
constexpr uint32_t SLOT_FLOATS = 8;   // one 32B slot per core for its partial sum

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    FrobeniusNormCustomTilingData td;
    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    uint64_t blockLen = (total + cores - 1) / cores;
    blockLen = (blockLen + 7) / 8 * 8;
    uint32_t used = static_cast<uint32_t>((total + blockLen - 1) / blockLen);

    td.set_totalLength(total);
    td.set_blockLength(blockLen);
    td.set_tileLength(TILE_LEN);
    td.set_usedCores(used);
    context->SetBlockDim(used);

    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // system workspace (needed by SyncAll) + partial sums
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * SLOT_FLOATS * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class FrobeniusNormCustom : public OpDef {
public:
    explicit FrobeniusNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(FrobeniusNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;

// y = x / ||x||_F
// phase 1: each core sums x^2 over its slice, publishes the partial into workspace
// barrier : SyncAll across the cores
// phase 2: each core adds up all partials, then scales its slice by 1/sqrt(total)
class KernelFrobeniusNorm {
public:
    __aicore__ inline KernelFrobeniusNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR usrWs, uint64_t total, uint64_t blockLen,
                                uint32_t tileLen, uint32_t usedCores)
    {
        blkIdx = GetBlockIdx();
        nCores = usedCores;
        tLen = tileLen;
        uint64_t begin = blockLen * blkIdx;
        myLen = (begin + blockLen <= total) ? blockLen : total - begin;

        xGm.SetGlobalBuffer((__gm__ float*)x + begin, myLen);
        yGm.SetGlobalBuffer((__gm__ float*)y + begin, myLen);
        partGm.SetGlobalBuffer((__gm__ float*)usrWs, nCores * SLOT);

        pipe.InitBuffer(inQ, BUFFER_NUM, tLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tLen * sizeof(float));
        pipe.InitBuffer(accBuf, tLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tLen * sizeof(float));
        uint32_t partBytes = ((nCores * SLOT * sizeof(float) + 31) / 32) * 32;
        pipe.InitBuffer(partBuf, partBytes < 256 ? 256 : partBytes);
    }

    __aicore__ inline void Process()
    {
        SumSquares();
        SyncAll();
        float scale = ReadScale();
        Normalize(scale);
    }

private:
    __aicore__ inline uint32_t LenOf(uint64_t i, uint64_t nTiles)
    {
        return (i + 1 < nTiles) ? tLen : static_cast<uint32_t>(myLen - i * tLen);
    }

    __aicore__ inline void Load(uint64_t off, uint32_t n)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void SumSquares()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        Duplicate(acc, 0.0f, tLen);
        uint64_t nTiles = (myLen + tLen - 1) / tLen;
        for (uint64_t i = 0; i < nTiles; i++) {
            uint32_t n = LenOf(i, nTiles);
            Load(i * tLen, n);
            LocalTensor<float> xl = inQ.DeQue<float>();
            Mul(sq, xl, xl, n);
            PipeBarrier<PIPE_V>();
            Add(acc, acc, sq, n);
            PipeBarrier<PIPE_V>();
            inQ.FreeTensor(xl);
        }

        LocalTensor<float> slot = outQ.AllocTensor<float>();
        Duplicate(slot, 0.0f, SLOT);
        PipeBarrier<PIPE_V>();
        ReduceSum(slot, acc, sq, tLen);
        outQ.EnQue(slot);
        slot = outQ.DeQue<float>();
        DataCopy(partGm[blkIdx * SLOT], slot, SLOT);
        outQ.FreeTensor(slot);
    }

    __aicore__ inline float ReadScale()
    {
        LocalTensor<float> parts = partBuf.Get<float>();
        LocalTensor<float> work = sqBuf.Get<float>();
        uint32_t n = nCores * SLOT;
        DataCopy(parts, partGm, n);
        event_t e0 = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(e0);
        WaitFlag<HardEvent::MTE2_V>(e0);
        ReduceSum(parts, parts, work, n);   // unused lanes of each slot are zero
        event_t e1 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e1);
        WaitFlag<HardEvent::V_S>(e1);
        float total = parts.GetValue(0);
        return 1.0f / sqrt(total);
    }

    __aicore__ inline void Normalize(float scale)
    {
        uint64_t nTiles = (myLen + tLen - 1) / tLen;
        for (uint64_t i = 0; i < nTiles; i++) {
            uint32_t n = LenOf(i, nTiles);
            Load(i * tLen, n);
            LocalTensor<float> xl = inQ.DeQue<float>();
            LocalTensor<float> yl = outQ.AllocTensor<float>();
            Muls(yl, xl, scale, n);
            outQ.EnQue(yl);
            inQ.FreeTensor(xl);

            yl = outQ.DeQue<float>();
            DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[i * tLen], yl, cp);
            outQ.FreeTensor(yl);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> accBuf, sqBuf, partBuf;
    GlobalTensor<float> xGm, yGm, partGm;
    uint64_t myLen;
    uint32_t tLen, blkIdx, nCores;
};

extern "C" __global__ __aicore__ void frobenius_norm_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    KernelFrobeniusNorm op;
    op.Init(x, y, usrWs, td.totalLength, td.blockLength, td.tileLength, td.usedCores);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor frobenius_norm_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnFrobeniusNormCustom, xc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("frobenius_norm_custom", &frobenius_norm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("frobenius_norm_custom", &frobenius_norm_custom_impl_npu, "x / ||x||_F");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.frobenius_norm_custom(x)
'''
