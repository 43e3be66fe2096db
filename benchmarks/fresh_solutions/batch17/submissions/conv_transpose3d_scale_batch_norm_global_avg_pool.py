project_json_src='''
[
    {
        "op": "ConvTranspose3dScaleBatchNormGlobalAvgPoolCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "conv_out",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "gamma",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "beta",
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
                "name": "scale",
                "param_type": "optional",
                "type": "float",
                "default_value": "1.0"
            },
            {
                "name": "eps",
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
BEGIN_TILING_DATA_DEF(ConvTranspose3dScaleBatchNormGlobalAvgPoolCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);        // D*H*W of the conv output
  TILING_DATA_FIELD_DEF(uint32_t, chPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dScaleBatchNormGlobalAvgPoolCustom,
                           ConvTranspose3dScaleBatchNormGlobalAvgPoolCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_scale_batch_norm_global_avg_pool_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t TILE_LEN = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dScaleBatchNormGlobalAvgPoolCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();   // (N, C, D, H, W)
    uint32_t n = static_cast<uint32_t>(shape.GetDim(0));
    uint32_t c = static_cast<uint32_t>(shape.GetDim(1));
    uint32_t s = static_cast<uint32_t>(shape.GetShapeSize() / (static_cast<int64_t>(n) * c));

    auto attrs = context->GetAttrs();
    const float* scalePtr = attrs->GetFloat(0);
    const float* epsPtr = attrs->GetFloat(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    // BN statistics are per channel -> split channels between the cores
    uint32_t chPerCore = (c + cores - 1) / cores;
    uint32_t used = (c + chPerCore - 1) / chPerCore;

    tiling.set_batch(n);
    tiling.set_channels(c);
    tiling.set_spatial(s);
    tiling.set_chPerCore(chPerCore);
    tiling.set_tileLen(TILE_LEN);
    tiling.set_scale(scalePtr ? *scalePtr : 1.0f);
    tiling.set_eps(epsPtr ? *epsPtr : 1e-5f);
    context->SetBlockDim(used);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(5);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, in->GetDim(1));
    out->SetDim(2, 1);
    out->SetDim(3, 1);
    out->SetDim(4, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dScaleBatchNormGlobalAvgPoolCustom : public OpDef {
public:
    explicit ConvTranspose3dScaleBatchNormGlobalAvgPoolCustom(const char* name) : OpDef(name)
    {
        this->Input("conv_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose3dScaleBatchNormGlobalAvgPoolCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Everything after the transposed convolution collapses to per-(n, c) statistics:
//   z        = scale * y
//   mu_c     = mean_{n,s} z,   var_c = mean_{n,s} z^2 - mu_c^2     (training-mode BN, biased)
//   out[n,c] = mean_s BN(z) = gamma_c * (scale * mean_s y[n,c] - mu_c) / sqrt(var_c + eps) + beta_c
// So we only need sum and sum of squares of y for every (n, c) plane.
class KernelScaleBnAvgPool {
public:
    __aicore__ inline KernelScaleBnAvgPool() {}
    __aicore__ inline void Init(GM_ADDR convOut, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                uint32_t batch, uint32_t channels, uint32_t spatial,
                                uint32_t chPerCore, uint32_t tileLen, float scale, float eps)
    {
        N = batch;
        C = channels;
        S = spatial;
        tile = tileLen;
        this->scale = scale;
        this->eps = eps;

        c0 = GetBlockIdx() * chPerCore;
        cCnt = (c0 + chPerCore <= C) ? chPerCore : C - c0;
        cPad = (cCnt + 7) / 8 * 8;

        xGm.SetGlobalBuffer((__gm__ float*)convOut, (uint64_t)N * C * S);
        gGm.SetGlobalBuffer((__gm__ float*)gamma, C);
        bGm.SetGlobalBuffer((__gm__ float*)beta, C);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)N * C);

        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(float));
        pipe.InitBuffer(sqBuf, tile * sizeof(float));
        pipe.InitBuffer(workBuf, tile * sizeof(float));
        pipe.InitBuffer(redBuf, 16 * sizeof(float));
        pipe.InitBuffer(planeSum, ((N + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(outQ, 1, N * cPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (cCnt == 0) {
            return;
        }
        LocalTensor<float> res = outQ.AllocTensor<float>();
        LocalTensor<float> sums = planeSum.Get<float>();
        float invS = 1.0f / static_cast<float>(S);
        float invNS = 1.0f / (static_cast<float>(N) * static_cast<float>(S));

        for (uint32_t ci = 0; ci < cCnt; ci++) {
            uint32_t c = c0 + ci;
            float tot = 0.0f;
            float totSq = 0.0f;
            for (uint32_t n = 0; n < N; n++) {
                float s1 = 0.0f;
                float s2 = 0.0f;
                PlaneStats((uint64_t)n * C * S + (uint64_t)c * S, s1, s2);
                sums.SetValue(n, s1);
                tot += s1;
                totSq += s2;
            }
            float mu = scale * tot * invNS;
            float ez2 = scale * scale * totSq * invNS;
            float var = ez2 - mu * mu;
            if (var < 0.0f) {
                var = 0.0f;
            }
            float k = gGm.GetValue(c) / sqrt(var + eps);
            float bc = bGm.GetValue(c);
            for (uint32_t n = 0; n < N; n++) {
                float m = scale * sums.GetValue(n) * invS;
                res.SetValue(n * cPad + ci, k * (m - mu) + bc);
            }
        }

        // scalar writes -> MTE3 copy out
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e);
        WaitFlag<HardEvent::S_MTE3>(e);
        // N rows of cCnt contiguous channels, row pitch C in GM
        DataCopyExtParams cp{static_cast<uint16_t>(N), static_cast<uint32_t>(cCnt * sizeof(float)), 0,
                             static_cast<uint32_t>((C - cCnt) * sizeof(float)), 0};
        DataCopyPad(yGm[c0], res, cp);
        outQ.FreeTensor(res);
    }

private:
    // sum and sum of squares of one (n, c) plane of S contiguous floats
    __aicore__ inline void PlaneStats(uint64_t base, float& s1, float& s2)
    {
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        for (uint32_t off = 0; off < S; off += tile) {
            uint32_t len = (S - off < tile) ? (S - off) : tile;
            LocalTensor<float> xl = inQ.AllocTensor<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(xl, xGm[base + off], cp, pad);
            inQ.EnQue(xl);
            xl = inQ.DeQue<float>();

            Mul(sq, xl, xl, len);
            ReduceSum(red, xl, work, len);
            PipeBarrier<PIPE_V>();
            ReduceSum(red[8], sq, work, len);
            inQ.FreeTensor(xl);

            event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            s1 += red.GetValue(0);
            s2 += red.GetValue(8);
            event_t e2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(e2);
            WaitFlag<HardEvent::S_V>(e2);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> sqBuf, workBuf, redBuf, planeSum;
    GlobalTensor<float> xGm, gGm, bGm, yGm;
    uint32_t N, C, S, tile, c0, cCnt, cPad;
    float scale, eps;
};

extern "C" __global__ __aicore__ void conv_transpose3d_scale_batch_norm_global_avg_pool_custom(
    GM_ADDR conv_out, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelScaleBnAvgPool op;
    op.Init(conv_out, gamma, beta, y, t.batch, t.channels, t.spatial, t.chPerCore, t.tileLen, t.scale, t.eps);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_scale_batch_norm_global_avg_pool_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
    const at::Tensor& gamma, const at::Tensor& beta, double scale, double eps)
{
    // transposed 3D conv stays on the vendor kernel (stride 1, no padding)
    at::Tensor conv = at::conv_transpose3d(x, weight, bias).contiguous();
    at::Tensor y = at::empty({conv.size(0), conv.size(1), 1, 1, 1}, conv.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dScaleBatchNormGlobalAvgPoolCustom, conv, gamma, beta, scale, eps, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_scale_batch_norm_global_avg_pool_custom",
           &conv_transpose3d_scale_batch_norm_global_avg_pool_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_scale_batch_norm_global_avg_pool_custom",
          &conv_transpose3d_scale_batch_norm_global_avg_pool_custom_impl_npu,
          "conv_transpose3d -> scale -> batch_norm (train) -> global avg pool");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scale_factor, eps=1e-5, momentum=0.1):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size)
        self.scale_factor = scale_factor
        self.batch_norm = nn.BatchNorm3d(out_channels, eps=eps, momentum=momentum)

    def forward(self, x):
        return custom_ops_lib.conv_transpose3d_scale_batch_norm_global_avg_pool_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias,
            self.batch_norm.weight, self.batch_norm.bias,
            float(self.scale_factor), float(self.batch_norm.eps))
'''
