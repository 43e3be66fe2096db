project_json_src='''
[
    {
        "op": "BatchNormCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "weight",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
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
        ],
        "attr": [
            {
                "name": "epsilon",
                "param_type": "optional",
                "type": "float",
                "default_value": "1e-5"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchNormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);          // H * W
  TILING_DATA_FIELD_DEF(uint32_t, channelsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);          // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, lastTileLen);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BatchNormCustom, BatchNormCustomTilingData)
}
"""

host_operator_src="""
#include "batch_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t TILE_LEN = 8192;   // 32 KB of fp32 per tile

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BatchNormCustomTilingData td;
    const auto& xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t dimNum = xs.GetDimNum();
    if (dimNum < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t spatial = 1;
    for (uint32_t i = 2; i < dimNum; ++i) {
        spatial *= xs.GetDim(i);
    }

    float eps = 1e-5f;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    if (attrs != nullptr && attrs->GetFloat(0) != nullptr) {
        eps = *attrs->GetFloat(0);
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) cores = 1;
    // statistics are per channel, so a channel is never split across cores
    uint32_t perCore = (c + cores - 1) / cores;
    uint32_t used = (c + perCore - 1) / perCore;

    uint32_t tile = spatial < TILE_LEN ? spatial : TILE_LEN;
    uint32_t tiles = (spatial + tile - 1) / tile;
    uint32_t last = spatial - (tiles - 1) * tile;

    td.set_batch(n);
    td.set_channels(c);
    td.set_spatial(spatial);
    td.set_channelsPerCore(perCore);
    td.set_tileLen(tile);
    td.set_tilesPerPlane(tiles);
    td.set_lastTileLen(last);
    td.set_eps(eps);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
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
class BatchNormCustom : public OpDef {
public:
    explicit BatchNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(BatchNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Training-mode BatchNorm over NC* input:
//   pass 1: per-lane running sum / sum of squares over all N planes of the channel
//   pass 2: y = x * a + b with a = gamma * rsqrt(var + eps), b = beta - mean * a
class BatchNormKernel {
public:
    __aicore__ inline BatchNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const BatchNormCustomTilingData& td)
    {
        N = td.batch;
        C = td.channels;
        HW = td.spatial;
        tileLen = td.tileLen;
        tiles = td.tilesPerPlane;
        lastLen = td.lastTileLen;
        eps = td.eps;

        cBegin = GetBlockIdx() * td.channelsPerCore;
        cEnd = cBegin + td.channelsPerCore;
        if (cEnd > C) cEnd = C;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        gammaGm.SetGlobalBuffer((__gm__ float*)w, C);
        betaGm.SetGlobalBuffer((__gm__ float*)b, C);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(sumBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
        pipe.InitBuffer(scalarBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t c = cBegin; c < cEnd; ++c) {
            float scale = 0.0f;
            float shift = 0.0f;
            Statistics(c, scale, shift);
            Normalize(c, scale, shift);
        }
    }

private:
    __aicore__ inline uint64_t PlaneOffset(uint32_t n, uint32_t c)
    {
        return ((uint64_t)n * C + c) * HW;
    }

    __aicore__ inline void LoadTile(uint64_t off, uint32_t len)
    {
        LocalTensor<float> t = inQ.AllocTensor<float>();
        DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(t, xGm[off], cp, pad);
        inQ.EnQue(t);
    }

    __aicore__ inline void Statistics(uint32_t c, float& scale, float& shift)
    {
        LocalTensor<float> accSum = sumBuf.Get<float>();
        LocalTensor<float> accSq = sqBuf.Get<float>();
        LocalTensor<float> sq = tmpBuf.Get<float>();
        Duplicate(accSum, 0.0f, tileLen);
        Duplicate(accSq, 0.0f, tileLen);
        PipeBarrier<PIPE_V>();

        for (uint32_t n = 0; n < N; ++n) {
            uint64_t base = PlaneOffset(n, c);
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t len = (t == tiles - 1) ? lastLen : tileLen;
                LoadTile(base + (uint64_t)t * tileLen, len);
                LocalTensor<float> xt = inQ.DeQue<float>();
                Add(accSum, accSum, xt, len);
                Mul(sq, xt, xt, len);
                PipeBarrier<PIPE_V>();
                Add(accSq, accSq, sq, len);
                PipeBarrier<PIPE_V>();
                inQ.FreeTensor(xt);
            }
        }

        // collapse the per-lane partials; sq is reused as the reduce workspace
        LocalTensor<float> res = scalarBuf.Get<float>();
        ReduceSum<float>(res, accSum, sq, tileLen);
        PipeBarrier<PIPE_V>();
        ReduceSum<float>(res[8], accSq, sq, tileLen);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);

        float count = (float)N * (float)HW;
        float mean = res.GetValue(0) / count;
        float var = res.GetValue(8) / count - mean * mean;   // biased variance, as in training mode
        if (var < 0.0f) var = 0.0f;

        // rsqrt through the vector unit
        res.SetValue(16, var + eps);
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        Sqrt(res[16], res[16], 8);
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float invStd = 1.0f / res.GetValue(16);

        float gamma = gammaGm.GetValue(c);
        float beta = betaGm.GetValue(c);
        scale = gamma * invStd;
        shift = beta - mean * scale;
    }

    __aicore__ inline void Normalize(uint32_t c, float scale, float shift)
    {
        for (uint32_t n = 0; n < N; ++n) {
            uint64_t base = PlaneOffset(n, c);
            for (uint32_t t = 0; t < tiles; ++t) {
                uint32_t len = (t == tiles - 1) ? lastLen : tileLen;
                uint64_t off = base + (uint64_t)t * tileLen;
                LoadTile(off, len);

                LocalTensor<float> xt = inQ.DeQue<float>();
                LocalTensor<float> yt = outQ.AllocTensor<float>();
                Muls(yt, xt, scale, len);
                PipeBarrier<PIPE_V>();
                Adds(yt, yt, shift, len);
                outQ.EnQue(yt);
                inQ.FreeTensor(xt);

                LocalTensor<float> yo = outQ.DeQue<float>();
                DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
                DataCopyPad(yGm[off], yo, cp);
                outQ.FreeTensor(yo);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> sumBuf, sqBuf, tmpBuf, scalarBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
    uint32_t N, C, HW, tileLen, tiles, lastLen;
    uint32_t cBegin, cEnd;
    float eps;
};

extern "C" __global__ __aicore__ void batch_norm_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    BatchNormKernel op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor batch_norm_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                      const at::Tensor& bias, double eps)
{
    at::Tensor input = x.contiguous();
    at::Tensor y = at::empty_like(input);
    EXEC_NPU_CMD(aclnnBatchNormCustom, input, weight, bias, eps, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("batch_norm_custom", &batch_norm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("batch_norm_custom", &batch_norm_custom_impl_npu, "BatchNorm2d (batch statistics)",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("bias"), pybind11::arg("eps") = 1e-5);
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super(ModelNew, self).__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.batch_norm_custom(x, self.bn.weight, self.bn.bias, self.bn.eps)
'''
