project_json_src='''
[
    {
        "op": "FrobeniusNormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FrobeniusNormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);   // may exceed 2^31 elements
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, tileCount);     // ceil(totalLength / tileLength)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);  // floor(tileCount / coreNum)
  TILING_DATA_FIELD_DEF(uint32_t, extraTiles);    // first extraTiles cores take one more tile
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FrobeniusNormCustom, FrobeniusNormCustomTilingData)
}
"""

host_operator_src="""
#include "frobenius_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LENGTH = 6 * 1024;    // 24KB per tile: 2 in + 2 out + acc + sq fit in UB
constexpr uint32_t PARTIAL_STRIDE = 8;        // one 32B slot per core in the workspace

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    FrobeniusNormCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;

    uint64_t total = static_cast<uint64_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    uint32_t tileCount = static_cast<uint32_t>((total + TILE_LENGTH - 1) / TILE_LENGTH);
    if (coreNum > tileCount) coreNum = tileCount > 0 ? tileCount : 1;

    tiling.set_totalLength(total);
    tiling.set_tileLength(TILE_LENGTH);
    tiling.set_tileCount(tileCount);
    tiling.set_tilesPerCore(tileCount / coreNum);
    tiling.set_extraTiles(tileCount % coreNum);
    tiling.set_coreNum(coreNum);

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // system workspace (needed for SyncAll) + per-core partial sums of squares
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + coreNum * PARTIAL_STRIDE * sizeof(float);
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
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

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
constexpr uint32_t SLOT = 8;   // floats per core slot in the workspace (32B)

// Two passes in one launch:
//   pass 1: every core reduces sum(x^2) over its tiles and publishes it to the workspace
//   SyncAll: all partial sums are visible
//   pass 2: every core reads the partials, forms 1/||x||_F and scales its tiles
class KernelFrobeniusNorm {
public:
    __aicore__ inline KernelFrobeniusNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR usrWs,
                                uint64_t total, uint32_t tileLen, uint32_t tilesPerCore,
                                uint32_t extraTiles, uint32_t coreNum)
    {
        totalLen = total;
        tileLength = tileLen;
        cores = coreNum;
        uint32_t idx = GetBlockIdx();
        myTiles = tilesPerCore + (idx < extraTiles ? 1 : 0);
        firstTile = idx * tilesPerCore + (idx < extraTiles ? idx : extraTiles);
        blockIdx = idx;

        xGm.SetGlobalBuffer((__gm__ float*)x, total);
        yGm.SetGlobalBuffer((__gm__ float*)y, total);
        partGm.SetGlobalBuffer((__gm__ float*)usrWs, coreNum * SLOT);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
        pipe.InitBuffer(slotBuf, (coreNum * SLOT + 63) / 64 * 64 * sizeof(float));
        pipe.InitBuffer(scalarBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        SumOfSquares();
        SyncAll();
        float inv = GlobalInverseNorm();
        Scale(inv);
    }

private:
    __aicore__ inline uint32_t TileLen(uint32_t t)
    {
        uint64_t start = static_cast<uint64_t>(t) * tileLength;
        uint64_t rest = totalLen - start;
        return rest < tileLength ? static_cast<uint32_t>(rest) : tileLength;
    }

    __aicore__ inline void LoadTile(uint32_t t, uint32_t len)
    {
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[static_cast<uint64_t>(t) * tileLength], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void SumOfSquares()
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        Duplicate(acc, 0.0f, tileLength);
        for (uint32_t i = 0; i < myTiles; ++i) {
            uint32_t t = firstTile + i;
            uint32_t len = TileLen(t);
            LoadTile(t, len);
            LocalTensor<float> xl = inQ.DeQue<float>();
            Mul(sq, xl, xl, len);
            Add(acc, acc, sq, len);
            inQ.FreeTensor(xl);
        }
        // lane-wise accumulator -> one value, stored in slot 0 of this core
        LocalTensor<float> s = scalarBuf.Get<float>();
        ReduceSum(s, acc, sq, tileLength);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(e);
        WaitFlag<HardEvent::V_MTE3>(e);
        DataCopy(partGm[blockIdx * SLOT], s, SLOT);
    }

    __aicore__ inline float GlobalInverseNorm()
    {
        LocalTensor<float> slots = slotBuf.Get<float>();
        DataCopy(slots, partGm, cores * SLOT);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(e);
        WaitFlag<HardEvent::MTE2_S>(e);
        float total = 0.0f;
        for (uint32_t c = 0; c < cores; ++c) {
            total += slots.GetValue(c * SLOT);
        }
        // sqrt on the vector unit, then reciprocal in scalar
        LocalTensor<float> s = scalarBuf.Get<float>();
        s.SetValue(0, total);
        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Sqrt(s, s, SLOT);
        event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        float norm = s.GetValue(0);
        return 1.0f / norm;
    }

    __aicore__ inline void Scale(float inv)
    {
        for (uint32_t i = 0; i < myTiles; ++i) {
            uint32_t t = firstTile + i;
            uint32_t len = TileLen(t);
            LoadTile(t, len);
            LocalTensor<float> xl = inQ.DeQue<float>();
            LocalTensor<float> yl = outQ.AllocTensor<float>();
            Muls(yl, xl, inv, len);
            outQ.EnQue(yl);
            inQ.FreeTensor(xl);

            yl = outQ.DeQue<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[static_cast<uint64_t>(t) * tileLength], yl, cp);
            outQ.FreeTensor(yl);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> accBuf, sqBuf, slotBuf, scalarBuf;
    GlobalTensor<float> xGm, yGm, partGm;
    uint64_t totalLen;
    uint32_t tileLength, cores, myTiles, firstTile, blockIdx;
};

extern "C" __global__ __aicore__ void frobenius_norm_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GM_ADDR usrWs = GetUserWorkspace(workspace);
    KernelFrobeniusNorm op;
    op.Init(x, y, usrWs, td.totalLength, td.tileLength, td.tilesPerCore, td.extraTiles, td.coreNum);
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
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.frobenius_norm_custom(x)
'''
