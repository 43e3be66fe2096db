project_json_src='''
[
    {
        "op": "ConvTranspose3dSwishGroupNormHardSwishCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "groups", "param_type": "required", "type": "int"},
            {"name": "eps", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dSwishGroupNormHardSwishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numChannels);
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);      // D*H*W
  TILING_DATA_FIELD_DEF(uint32_t, totalGroups);  // N * groups
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB tile
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dSwishGroupNormHardSwishCustom, ConvTranspose3dSwishGroupNormHardSwishCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_swish_group_norm_hard_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_LEN = 4096;   // 16KB per float tile; 7 tiles + Sigmoid scratch fit in UB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dSwishGroupNormHardSwishCustomTilingData tiling;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();  // [N, C, D, H, W]
    uint32_t batch = xs.GetDim(0);
    uint32_t ch = xs.GetDim(1);
    uint32_t spatial = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        spatial *= xs.GetDim(i);
    }
    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetInt(0));
    float eps = *attrs->GetFloat(1);
    if (groups == 0 || ch % groups != 0) {
        return ge::GRAPH_FAILED;
    }

    uint32_t totalGroups = batch * groups;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > totalGroups) cores = totalGroups;
    if (cores == 0) cores = 1;

    tiling.set_numChannels(ch);
    tiling.set_numGroups(groups);
    tiling.set_chPerGroup(ch / groups);
    tiling.set_spatial(spatial);
    tiling.set_totalGroups(totalGroups);
    tiling.set_tileLen(TILE_LEN);
    tiling.set_eps(eps);

    context->SetBlockDim(cores);
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
class ConvTranspose3dSwishGroupNormHardSwishCustom : public OpDef {
public:
    explicit ConvTranspose3dSwishGroupNormHardSwishCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("groups").AttrType(REQUIRED).Int();
        this->Attr("eps").AttrType(REQUIRED).Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose3dSwishGroupNormHardSwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// swish -> GroupNorm -> hardswish on the output of ConvTranspose3d.
// Each (batch, group) pair is handled by one core in two sweeps:
//   sweep 1: accumulate sum / sum of squares of swish(x) over the group,
//   sweep 2: recompute swish, normalize with per-channel affine, hardswish, store.
class KernelSwishGroupNormHardSwish {
public:
    __aicore__ inline KernelSwishGroupNormHardSwish() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const ConvTranspose3dSwishGroupNormHardSwishCustomTilingData& td)
    {
        C = td.numChannels;
        G = td.numGroups;
        cpg = td.chPerGroup;
        S = td.spatial;
        totalGroups = td.totalGroups;
        tileLen = td.tileLen;
        eps = td.eps;
        groupLen = static_cast<uint64_t>(cpg) * S;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, C);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, C);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(actBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sumBuf, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
        // ReduceSum scratch: one slot per 64-float repeat is plenty, round generously
        pipe.InitBuffer(redBuf, (tileLen / 64 + 64) * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t cores = AscendC::GetBlockNum();
        for (uint32_t gid = AscendC::GetBlockIdx(); gid < totalGroups; gid += cores) {
            uint64_t base = static_cast<uint64_t>(gid) * groupLen;
            uint32_t firstCh = (gid % G) * cpg;
            float mean, rstd;
            Statistics(base, mean, rstd);
            for (uint32_t c = 0; c < cpg; ++c) {
                float a = gammaGm.GetValue(firstCh + c) * rstd;
                float b = betaGm.GetValue(firstCh + c) - mean * a;
                Normalize(base + static_cast<uint64_t>(c) * S, a, b);
            }
        }
    }

private:
    __aicore__ inline void LoadTile(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> t = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(t, xGm[off], p, pad);
        inQ.EnQue(t);
    }

    // act = x * sigmoid(x)
    __aicore__ inline void Swish(const AscendC::LocalTensor<float>& act, const AscendC::LocalTensor<float>& x,
                                 uint32_t len)
    {
        AscendC::Sigmoid(act, x, len);
        AscendC::Mul(act, act, x, len);
    }

    __aicore__ inline void Statistics(uint64_t base, float& mean, float& rstd)
    {
        AscendC::LocalTensor<float> acc = sumBuf.Get<float>();
        AscendC::LocalTensor<float> accSq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> act = actBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tileLen);
        AscendC::Duplicate(accSq, 0.0f, tileLen);

        for (uint64_t off = 0; off < groupLen; off += tileLen) {
            uint32_t len = (groupLen - off) < tileLen ? static_cast<uint32_t>(groupLen - off) : tileLen;
            LoadTile(base + off, len);
            AscendC::LocalTensor<float> x = inQ.DeQue<float>();
            Swish(act, x, len);
            inQ.FreeTensor(x);
            AscendC::Add(acc, acc, act, len);
            AscendC::Mul(act, act, act, len);
            AscendC::Add(accSq, accSq, act, len);
        }

        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        AscendC::ReduceSum(acc, acc, red, tileLen);
        AscendC::ReduceSum(accSq, accSq, red, tileLen);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        float inv = 1.0f / static_cast<float>(groupLen);
        mean = acc.GetValue(0) * inv;
        float var = accSq.GetValue(0) * inv - mean * mean;
        if (var < 0.0f) var = 0.0f;
        // rsqrt via a one-element vector op keeps precision identical to device sqrt
        acc.SetValue(0, var + eps);
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev2);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev2);
        AscendC::Sqrt(acc, acc, 8);
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        rstd = 1.0f / acc.GetValue(0);
        // the accumulators are re-initialized by vector ops in the next group
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev2);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev2);
    }

    __aicore__ inline void Normalize(uint64_t chBase, float a, float b)
    {
        AscendC::LocalTensor<float> act = actBuf.Get<float>();
        for (uint32_t off = 0; off < S; off += tileLen) {
            uint32_t len = (S - off) < tileLen ? (S - off) : tileLen;
            LoadTile(chBase + off, len);
            AscendC::LocalTensor<float> x = inQ.DeQue<float>();
            AscendC::LocalTensor<float> y = outQ.AllocTensor<float>();
            Swish(act, x, len);
            inQ.FreeTensor(x);
            // group norm: act * a + b
            AscendC::Muls(act, act, a, len);
            AscendC::Adds(act, act, b, len);
            // hardswish: v * clamp(v + 3, 0, 6) / 6
            AscendC::Adds(y, act, 3.0f, len);
            AscendC::Maxs(y, y, 0.0f, len);
            AscendC::Mins(y, y, 6.0f, len);
            AscendC::Mul(y, y, act, len);
            AscendC::Muls(y, y, 1.0f / 6.0f, len);
            outQ.EnQue(y);

            AscendC::LocalTensor<float> yo = outQ.DeQue<float>();
            AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[chBase + off], yo, p);
            outQ.FreeTensor(yo);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> actBuf, sumBuf, sqBuf, redBuf;
    AscendC::GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
    uint32_t C, G, cpg, S, totalGroups, tileLen;
    uint64_t groupLen;
    float eps;
};

extern "C" __global__ __aicore__ void conv_transpose3d_swish_group_norm_hard_swish_custom(
    GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelSwishGroupNormHardSwish op;
    op.Init(x, gamma, beta, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_swish_group_norm_hard_swish_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
    int64_t stride, int64_t padding,
    const at::Tensor& gamma, const at::Tensor& beta, int64_t groups, double eps)
{
    // transposed 3D convolution through the stock NPU kernel
    at::Tensor conv = at::conv_transpose3d(x, weight, bias,
                                           {stride, stride, stride},
                                           {padding, padding, padding}).contiguous();
    at::Tensor result = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConvTranspose3dSwishGroupNormHardSwishCustom, conv, gamma, beta, groups, eps, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_swish_group_norm_hard_swish_custom",
           &conv_transpose3d_swish_group_norm_hard_swish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_swish_group_norm_hard_swish_custom",
          &conv_transpose3d_swish_group_norm_hard_swish_custom_impl_npu,
          "conv_transpose3d + swish + group_norm + hardswish");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, groups, eps, bias=True):
        super().__init__()
        self.conv_transpose = torch.nn.ConvTranspose3d(in_channels, out_channels, kernel_size,
                                                       stride=stride, padding=padding, bias=bias)
        self.group_norm = torch.nn.GroupNorm(num_groups=groups, num_channels=out_channels, eps=eps)
        self.stride = stride
        self.padding = padding
        self.groups = groups
        self.eps = eps

    def forward(self, x):
        return custom_ops_lib.conv_transpose3d_swish_group_norm_hard_swish_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias, self.stride, self.padding,
            self.group_norm.weight, self.group_norm.bias, self.groups, self.eps)
'''
