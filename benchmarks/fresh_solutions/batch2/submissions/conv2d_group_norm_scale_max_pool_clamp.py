project_json_src='''
[
    {
        "op": "Conv2dGroupNormScaleMaxPoolClampCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "num_groups", "param_type": "required", "type": "int"},
            {"name": "pool_size", "param_type": "required", "type": "int"},
            {"name": "clamp_min", "param_type": "required", "type": "float"},
            {"name": "clamp_max", "param_type": "required", "type": "float"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dGroupNormScaleMaxPoolClampCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, pool);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);    // width padded to 8 floats in UB
  TILING_DATA_FIELD_DEF(uint32_t, statChunk);    // floats per chunk when accumulating group statistics
  TILING_DATA_FIELD_DEF(uint32_t, totalGroups);  // batch * groups
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(float, clampMin);
  TILING_DATA_FIELD_DEF(float, clampMax);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dGroupNormScaleMaxPoolClampCustom, Conv2dGroupNormScaleMaxPoolClampCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_group_norm_scale_max_pool_clamp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t STAT_CHUNK = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dGroupNormScaleMaxPoolClampCustomTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    if (s.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = s.GetDim(0), c = s.GetDim(1), h = s.GetDim(2), w = s.GetDim(3);

    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t pool = static_cast<uint32_t>(*attrs->GetInt(1));
    float cmin = *attrs->GetFloat(2);
    float cmax = *attrs->GetFloat(3);
    const float* epsPtr = attrs->GetFloat(4);
    float eps = epsPtr ? *epsPtr : 1e-5f;
    if (groups == 0 || c % groups != 0 || pool == 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t total = n * groups;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > total) cores = total;
    if (cores == 0) cores = 1;

    td.set_batch(n);
    td.set_channels(c);
    td.set_height(h);
    td.set_width(w);
    td.set_groups(groups);
    td.set_chPerGroup(c / groups);
    td.set_pool(pool);
    td.set_outH(h / pool);
    td.set_outW(w / pool);
    td.set_rowStride((w + 7) / 8 * 8);
    td.set_statChunk(STAT_CHUNK);
    td.set_totalGroups(total);
    td.set_coreNum(cores);
    td.set_clampMin(cmin);
    td.set_clampMax(cmax);
    td.set_eps(eps);

    context->SetBlockDim(cores);
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
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    int64_t k = *context->GetAttrs()->GetInt(1);
    *y = *x;
    y->SetDim(2, x->GetDim(2) / k);
    y->SetDim(3, x->GetDim(3) / k);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dGroupNormScaleMaxPoolClampCustom : public OpDef {
public:
    explicit Conv2dGroupNormScaleMaxPoolClampCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("pool_size").Int();
        this->Attr("clamp_min").Float();
        this->Attr("clamp_max").Float();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(Conv2dGroupNormScaleMaxPoolClampCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// GroupNorm -> per-channel scale -> MaxPool(k, stride k) -> clamp, on the conv output.
// Work unit: one (sample, group). Two passes over the group:
//   1) sum / sum of squares -> mean, rstd
//   2) per channel: y = a_c * x + b_c, max over k x k windows, clamp
class KernelGnScalePoolClamp {
public:
    __aicore__ inline KernelGnScalePoolClamp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale, GM_ADDR y,
                                const Conv2dGroupNormScaleMaxPoolClampCustomTilingData& td)
    {
        C = td.channels; H = td.height; W = td.width;
        G = td.groups; cpg = td.chPerGroup; K = td.pool;
        OH = td.outH; OW = td.outW; RS = td.rowStride;
        chunk = td.statChunk;
        totalGroups = td.totalGroups; coreNum = td.coreNum;
        clampMin = td.clampMin; clampMax = td.clampMax; eps = td.eps;

        outCnt = OH * OW;
        outCntAligned = (outCnt + 7) / 8 * 8;
        usedRows = OH * K;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, C);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, C);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, C);

        uint32_t planeFloats = usedRows * RS;
        uint32_t inFloats = planeFloats > 2 * chunk ? planeFloats : 2 * chunk;
        pipe.InitBuffer(inQ, 1, inFloats * sizeof(float));
        pipe.InitBuffer(outQ, 2, outCntAligned * sizeof(float));
        pipe.InitBuffer(rowMaxBuf, OH * RS * sizeof(float));
        pipe.InitBuffer(offsetBuf, K * outCntAligned * sizeof(uint32_t));
        pipe.InitBuffer(gatherBuf, outCntAligned * sizeof(float));
        pipe.InitBuffer(workBuf, 4096);
        pipe.InitBuffer(scalarBuf, 64);

        BuildGatherOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t gi = GetBlockIdx(); gi < totalGroups; gi += coreNum) {
            uint32_t n = gi / G;
            uint32_t g = gi % G;
            float mean, rstd;
            GroupStats(n, g, mean, rstd);
            for (uint32_t j = 0; j < cpg; ++j) {
                uint32_t c = g * cpg + j;
                float gm = gammaGm.GetValue(c);
                float sc = scaleGm.GetValue(c);
                float a = rstd * gm * sc;
                float b = (betaGm.GetValue(c) - mean * rstd * gm) * sc;
                PoolChannel(n * C + c, a, b);
            }
        }
    }

private:
    // offsets (bytes) into the row-max buffer for tap k of every output pixel
    __aicore__ inline void BuildGatherOffsets()
    {
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        for (uint32_t k = 0; k < K; ++k) {
            for (uint32_t oh = 0; oh < OH; ++oh) {
                for (uint32_t ow = 0; ow < OW; ++ow) {
                    uint32_t elem = oh * RS + ow * K + k;
                    offs.SetValue(k * outCntAligned + oh * OW + ow, elem * sizeof(float));
                }
            }
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline float ReadBack(const LocalTensor<float>& t)
    {
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return t.GetValue(0);
    }

    __aicore__ inline void GroupStats(uint32_t n, uint32_t g, float& mean, float& rstd)
    {
        uint64_t base = (static_cast<uint64_t>(n) * C + g * cpg) * H * W;
        uint32_t len = cpg * H * W;
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> sc = scalarBuf.Get<float>();
        float sum = 0.0f;
        float sq = 0.0f;
        for (uint32_t off = 0; off < len; off += chunk) {
            uint32_t cnt = (off + chunk <= len) ? chunk : (len - off);
            LocalTensor<float> buf = inQ.AllocTensor<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(buf, xGm[base + off], cp, pad);
            inQ.EnQue(buf);
            buf = inQ.DeQue<float>();

            LocalTensor<float> squares = buf[chunk];
            Mul(squares, buf, buf, cnt);
            ReduceSum(sc, buf, work, cnt);
            PipeBarrier<PIPE_V>();
            ReduceSum(sc[8], squares, work, cnt);
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            sum += sc.GetValue(0);
            sq += sc.GetValue(8);
            inQ.FreeTensor(buf);
        }
        float inv = 1.0f / static_cast<float>(len);
        mean = sum * inv;
        float var = sq * inv - mean * mean;
        if (var < 0.0f) {
            var = 0.0f;
        }
        // rstd = 1 / sqrt(var + eps), computed on the vector unit
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Duplicate(sc, var + eps, 8);
        PipeBarrier<PIPE_V>();
        Sqrt(sc, sc, 8);
        rstd = 1.0f / ReadBack(sc);
    }

    __aicore__ inline void PoolChannel(uint32_t plane, float a, float b)
    {
        // bring rows [0, OH*K) of the plane in, each row padded to RS floats
        LocalTensor<float> buf = inQ.AllocTensor<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(usedRows);
        cp.blockLen = W * sizeof(float);
        cp.srcStride = 0;
        cp.dstStride = 0;       // DataCopyPad already rounds every row up to 32 bytes (= RS floats)
        cp.rsv = 0;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(buf, xGm[static_cast<uint64_t>(plane) * H * W], cp, pad);
        inQ.EnQue(buf);
        buf = inQ.DeQue<float>();

        uint32_t total = usedRows * RS;
        Muls(buf, buf, a, total);
        PipeBarrier<PIPE_V>();
        Adds(buf, buf, b, total);
        PipeBarrier<PIPE_V>();

        // vertical max over the K rows of each window row
        LocalTensor<float> rowMax = rowMaxBuf.Get<float>();
        for (uint32_t oh = 0; oh < OH; ++oh) {
            LocalTensor<float> dst = rowMax[oh * RS];
            LocalTensor<float> src = buf[oh * K * RS];
            if (K == 1) {
                Adds(dst, src, 0.0f, RS);
            } else {
                Max(dst, src, src[RS], RS);
                for (uint32_t k = 2; k < K; ++k) {
                    PipeBarrier<PIPE_V>();
                    Max(dst, dst, src[k * RS], RS);
                }
            }
        }
        PipeBarrier<PIPE_V>();
        inQ.FreeTensor(buf);

        // horizontal max: gather tap k of every window and fold
        LocalTensor<uint32_t> offs = offsetBuf.Get<uint32_t>();
        LocalTensor<float> tmp = gatherBuf.Get<float>();
        LocalTensor<float> out = outQ.AllocTensor<float>();
        Gather(out, rowMax, offs, static_cast<uint32_t>(0), outCnt);
        for (uint32_t k = 1; k < K; ++k) {
            Gather(tmp, rowMax, offs[k * outCntAligned], static_cast<uint32_t>(0), outCnt);
            PipeBarrier<PIPE_V>();
            Max(out, out, tmp, outCnt);
            PipeBarrier<PIPE_V>();
        }
        Maxs(out, out, clampMin, outCnt);
        PipeBarrier<PIPE_V>();
        Mins(out, out, clampMax, outCnt);
        outQ.EnQue(out);

        out = outQ.DeQue<float>();
        DataCopyExtParams cpOut{1, static_cast<uint32_t>(outCnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(plane) * outCnt], out, cpOut);
        outQ.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    TBuf<TPosition::VECCALC> rowMaxBuf, offsetBuf, gatherBuf, workBuf, scalarBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm, scaleGm;

    uint32_t C, H, W, G, cpg, K, OH, OW, RS, chunk;
    uint32_t totalGroups, coreNum;
    uint32_t outCnt, outCntAligned, usedRows;
    float clampMin, clampMax, eps;
};

extern "C" __global__ __aicore__ void conv2d_group_norm_scale_max_pool_clamp_custom(
    GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelGnScalePoolClamp op;
    op.Init(x, gamma, beta, scale, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_group_norm_scale_max_pool_clamp_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& convWeight, const at::Tensor& convBias,
    const at::Tensor& gamma, const at::Tensor& beta, const at::Tensor& scale,
    int64_t numGroups, int64_t poolSize, double clampMin, double clampMax)
{
    // convolution stays on the stock NPU kernel
    at::Tensor conv = at::conv2d(x, convWeight, convBias).contiguous();
    auto outH = conv.size(2) / poolSize;
    auto outW = conv.size(3) / poolSize;
    at::Tensor result = at::empty({conv.size(0), conv.size(1), outH, outW}, conv.options());
    at::Tensor scaleFlat = scale.reshape({-1}).contiguous();
    double eps = 1e-5;
    EXEC_NPU_CMD(aclnnConv2dGroupNormScaleMaxPoolClampCustom, conv, gamma, beta, scaleFlat,
                 numGroups, poolSize, clampMin, clampMax, eps, result);
    return result;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_group_norm_scale_max_pool_clamp_custom",
          &conv2d_group_norm_scale_max_pool_clamp_custom_impl_npu,
          "conv2d + fused groupnorm/scale/maxpool/clamp");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, num_groups, scale_shape,
                 maxpool_kernel_size, clamp_min, clamp_max):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.group_norm = nn.GroupNorm(num_groups, out_channels)
        self.scale = nn.Parameter(torch.ones(scale_shape))
        self.num_groups = num_groups
        self.pool = maxpool_kernel_size
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x):
        return custom_ops_lib.conv2d_group_norm_scale_max_pool_clamp_custom(
            x, self.conv.weight, self.conv.bias,
            self.group_norm.weight, self.group_norm.bias, self.scale,
            self.num_groups, self.pool, float(self.clamp_min), float(self.clamp_max))
'''
