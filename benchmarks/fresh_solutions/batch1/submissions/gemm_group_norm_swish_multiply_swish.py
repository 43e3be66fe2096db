project_json_src='''
[
    {
        "op": "GemmGroupNormSwishMultiplySwishCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "multiply_weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "num_groups", "param_type": "required", "type": "int"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmGroupNormSwishMultiplySwishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmGroupNormSwishMultiplySwishCustom, GemmGroupNormSwishMultiplySwishCustomTilingData)
}
"""

host_operator_src="""
#include "gemm_group_norm_swish_multiply_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GemmGroupNormSwishMultiplySwishCustomTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    auto xShape = context->GetInputShape(0)->GetOriginShape();
    uint32_t rows = xShape.GetDim(0);
    uint32_t channels = xShape.GetDim(1);

    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetInt(0));
    float eps = 1e-5f;
    if (attrs->GetFloat(1) != nullptr) {
        eps = *attrs->GetFloat(1);
    }
    if (groups == 0 || channels % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t groupSize = channels / groups;
    // the kernel reduces a group in one vector repeat and broadcasts per 32B block
    if (groupSize % 8 != 0 || groupSize > 64 || groups % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    // x, y, gamma, beta, multiply_weight rows + group statistics must fit in UB
    uint64_t need = 5ULL * channels * sizeof(float) + 4ULL * groups * 8 * sizeof(float);
    if (need > ubSize) {
        return ge::GRAPH_FAILED;
    }

    uint32_t rowsPerCore = (rows + aivNum - 1) / aivNum;
    uint32_t blockDim = (rows + rowsPerCore - 1) / rowsPerCore;
    context->SetBlockDim(blockDim);

    tiling.set_rows(rows);
    tiling.set_channels(channels);
    tiling.set_numGroups(groups);
    tiling.set_groupSize(groupSize);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_eps(eps);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmGroupNormSwishMultiplySwishCustom : public OpDef {
public:
    explicit GemmGroupNormSwishMultiplySwishCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("multiply_weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmGroupNormSwishMultiplySwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

// Post-GEMM fusion, one row (sample) at a time:
//   z = GroupNorm(x) * gamma + beta
//   z = swish(z) * multiply_weight
//   y = swish(z)
class KernelGroupNormSwishMulSwish {
public:
    __aicore__ inline KernelGroupNormSwishMulSwish() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR mw, GM_ADDR y,
                                const GemmGroupNormSwishMultiplySwishCustomTilingData &td)
    {
        C = td.channels;
        G = td.numGroups;
        gs = td.groupSize;
        eps = td.eps;
        uint32_t r0 = GetBlockIdx() * td.rowsPerCore;
        rowStart = r0;
        rowCount = 0;
        if (r0 < td.rows) {
            rowCount = (td.rows - r0) < td.rowsPerCore ? (td.rows - r0) : td.rowsPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)td.rows * C);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)td.rows * C);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, C);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, C);
        mwGm.SetGlobalBuffer((__gm__ float *)mw, C);

        pipe.InitBuffer(xQue, 1, C * sizeof(float));
        pipe.InitBuffer(yQue, 1, C * sizeof(float));
        pipe.InitBuffer(gammaBuf, C * sizeof(float));
        pipe.InitBuffer(betaBuf, C * sizeof(float));
        pipe.InitBuffer(mwBuf, C * sizeof(float));
        // per-group stats (G values) and their 8-wide broadcast (G blocks)
        pipe.InitBuffer(meanBuf, G * sizeof(float));
        pipe.InitBuffer(sqBuf, G * sizeof(float));
        pipe.InitBuffer(meanBlkBuf, G * 8 * sizeof(float));
        pipe.InitBuffer(rstdBlkBuf, G * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (rowCount == 0) {
            return;
        }
        LoadParams();
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t off = (uint64_t)(rowStart + r) * C;
            LocalTensor<float> xl = xQue.AllocTensor<float>();
            DataCopy(xl, xGm[off], C);
            xQue.EnQue(xl);
            Compute();
            LocalTensor<float> yl = yQue.DeQue<float>();
            DataCopy(yGm[off], yl, C);
            yQue.FreeTensor(yl);
        }
    }

private:
    __aicore__ inline void LoadParams()
    {
        LocalTensor<float> g = gammaBuf.Get<float>();
        LocalTensor<float> b = betaBuf.Get<float>();
        LocalTensor<float> m = mwBuf.Get<float>();
        DataCopy(g, gammaGm, C);
        DataCopy(b, betaGm, C);
        DataCopy(m, mwGm, C);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
    }

    // per-group sum of src (each group = gs contiguous floats) -> dst[G]
    __aicore__ inline void GroupSum(const LocalTensor<float> &dst, const LocalTensor<float> &src)
    {
        const uint32_t maxRep = 128;
        for (uint32_t g0 = 0; g0 < G; g0 += maxRep) {
            uint32_t rep = (G - g0) < maxRep ? (G - g0) : maxRep;
            WholeReduceSum<float>(dst[g0], src[g0 * gs], (int32_t)gs, (int32_t)rep, 1, 1, (int32_t)(gs / 8));
        }
    }

    // x[g*gs + k] op= blk[g*8 + (k % 8)], i.e. per-group scalar broadcast via strided repeats
    __aicore__ inline void GroupBroadcastSub(const LocalTensor<float> &x, const LocalTensor<float> &blk)
    {
        uint8_t grpBlocks = (uint8_t)(gs / 8);
        BinaryRepeatParams p(grpBlocks, grpBlocks, 1, (uint8_t)(8 * grpBlocks), (uint8_t)(8 * grpBlocks), 8);
        for (uint32_t b = 0; b < gs / 8; ++b) {
            Sub(x[b * 8], x[b * 8], blk, (uint64_t)64, (uint8_t)(G / 8), p);
        }
    }
    __aicore__ inline void GroupBroadcastMul(const LocalTensor<float> &x, const LocalTensor<float> &blk)
    {
        uint8_t grpBlocks = (uint8_t)(gs / 8);
        BinaryRepeatParams p(grpBlocks, grpBlocks, 1, (uint8_t)(8 * grpBlocks), (uint8_t)(8 * grpBlocks), 8);
        for (uint32_t b = 0; b < gs / 8; ++b) {
            Mul(x[b * 8], x[b * 8], blk, (uint64_t)64, (uint8_t)(G / 8), p);
        }
    }

    // dst = v * sigmoid(v) = v / (1 + exp(-v)); tmp may alias dst
    __aicore__ inline void Swish(const LocalTensor<float> &dst, const LocalTensor<float> &v,
                                 const LocalTensor<float> &tmp)
    {
        Muls(tmp, v, -1.0f, C);
        Exp(tmp, tmp, C);
        Adds(tmp, tmp, 1.0f, C);
        Div(dst, v, tmp, C);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xl = xQue.DeQue<float>();
        LocalTensor<float> yl = yQue.AllocTensor<float>();
        LocalTensor<float> mean = meanBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> meanBlk = meanBlkBuf.Get<float>();
        LocalTensor<float> rstdBlk = rstdBlkBuf.Get<float>();
        const float invGs = 1.0f / (float)gs;

        // --- group statistics: mean and E[x^2] ---
        GroupSum(mean, xl);
        Mul(yl, xl, xl, C);
        GroupSum(sq, yl);
        Muls(mean, mean, invGs, G);
        Muls(sq, sq, invGs, G);
        // var = E[x^2] - mean^2 ; rstd = 1 / sqrt(var + eps)   (stored back in sq)
        Mul(yl, mean, mean, G);
        Sub(sq, sq, yl, G);
        Maxs(sq, sq, 0.0f, G);
        Adds(sq, sq, eps, G);
        Sqrt(sq, sq, G);
        Duplicate(yl, 1.0f, G);
        Div(sq, yl, sq, G);

        // broadcast each group's value to a full 32B block
        Brcb(meanBlk, mean, (uint8_t)(G / 8), {1, 8});
        Brcb(rstdBlk, sq, (uint8_t)(G / 8), {1, 8});

        // --- normalize + affine ---
        GroupBroadcastSub(xl, meanBlk);
        GroupBroadcastMul(xl, rstdBlk);
        Mul(xl, xl, gammaBuf.Get<float>(), C);
        Add(xl, xl, betaBuf.Get<float>(), C);

        // --- swish, multiply, swish ---
        Swish(xl, xl, yl);
        Mul(xl, xl, mwBuf.Get<float>(), C);
        Swish(yl, xl, yl);

        yQue.EnQue(yl);
        xQue.FreeTensor(xl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> xQue;
    TQue<QuePosition::VECOUT, 1> yQue;
    TBuf<TPosition::VECCALC> gammaBuf, betaBuf, mwBuf, meanBuf, sqBuf, meanBlkBuf, rstdBlkBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm, mwGm;
    uint32_t C, G, gs, rowStart, rowCount;
    float eps;
};

extern "C" __global__ __aicore__ void gemm_group_norm_swish_multiply_swish_custom(
    GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR multiply_weight, GM_ADDR y,
    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelGroupNormSwishMulSwish op;
    op.Init(x, gamma, beta, multiply_weight, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear layer on the cube via addmm, then the fused GroupNorm/Swish/Multiply/Swish kernel.
at::Tensor gemm_group_norm_swish_multiply_swish_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
    const at::Tensor& gamma, const at::Tensor& beta, const at::Tensor& multiply_weight,
    int64_t num_groups, double eps) {
    at::Tensor h = at::addmm(bias, x, weight.t()).contiguous();
    at::Tensor y = at::empty_like(h);
    at::Tensor g = gamma.contiguous();
    at::Tensor b = beta.contiguous();
    at::Tensor mw = multiply_weight.contiguous();
    float epsf = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnGemmGroupNormSwishMultiplySwishCustom, h, g, b, mw, num_groups, epsf, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_group_norm_swish_multiply_swish_custom", &gemm_group_norm_swish_multiply_swish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_group_norm_swish_multiply_swish_custom", &gemm_group_norm_swish_multiply_swish_custom_impl_npu,
          "Linear -> GroupNorm -> Swish -> Multiply -> Swish");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, num_groups, multiply_weight_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.group_norm = nn.GroupNorm(num_groups, out_features)
        self.multiply_weight = nn.Parameter(torch.randn(multiply_weight_shape))

    def forward(self, x):
        return custom_ops_lib.gemm_group_norm_swish_multiply_swish_custom(
            x, self.gemm.weight, self.gemm.bias,
            self.group_norm.weight, self.group_norm.bias, self.multiply_weight,
            self.group_norm.num_groups, self.group_norm.eps)
'''
