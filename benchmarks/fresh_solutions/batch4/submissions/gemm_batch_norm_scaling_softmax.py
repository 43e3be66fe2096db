project_json_src='''
[
    {
        "op": "GemmBatchNormScalingSoftmaxCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "y",
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
            },
            {
                "name": "scale",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "out",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "attr": [
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
BEGIN_TILING_DATA_DEF(GemmBatchNormScalingSoftmaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, M);            // batch
  TILING_DATA_FIELD_DEF(uint32_t, N);            // out_features
  TILING_DATA_FIELD_DEF(uint32_t, colPerCore);   // 阶段一：每核负责的列数（8 对齐）
  TILING_DATA_FIELD_DEF(uint32_t, rowTile);      // 阶段一：每次搬入的行数
  TILING_DATA_FIELD_DEF(uint32_t, rowPerCore);   // 阶段二：每核负责的行数
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmBatchNormScalingSoftmaxCustom, GemmBatchNormScalingSoftmaxCustomTilingData)
}
"""

host_operator_src="""
#include "gemm_batch_norm_scaling_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_ROW_LEN = 8192;   // 阶段二整行放进 UB 的上限
constexpr uint32_t STAT_BLOCK_BYTES = 32 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GemmBatchNormScalingSoftmaxCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t M = shape.GetDim(0);
    uint32_t N = shape.GetDim(1);
    if (N > MAX_ROW_LEN || N % 8 != 0) {
        return ge::GRAPH_FAILED;
    }
    const float* epsPtr = context->GetAttrs()->GetFloat(0);
    float eps = epsPtr == nullptr ? 1e-5f : *epsPtr;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    coreNum = coreNum == 0 ? 1 : coreNum;
    // 两个阶段之间要做全核同步，所以两个阶段使用同一个 blockDim，空闲核也要参与同步
    uint32_t colPerCore = ((N + coreNum - 1) / coreNum + 7) / 8 * 8;
    uint32_t rowPerCore = (M + coreNum - 1) / coreNum;
    uint32_t rowTile = STAT_BLOCK_BYTES / (colPerCore * sizeof(float));
    rowTile = rowTile == 0 ? 1 : rowTile;
    rowTile = rowTile > M ? M : rowTile;

    context->SetBlockDim(coreNum);
    tiling.set_M(M);
    tiling.set_N(N);
    tiling.set_colPerCore(colPerCore);
    tiling.set_rowTile(rowTile);
    tiling.set_rowPerCore(rowPerCore);
    tiling.set_eps(eps);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // 用户 workspace：每列的仿射系数 a[N]、b[N]
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize() + 2 * N * sizeof(float);
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
class GemmBatchNormScalingSoftmaxCustom : public OpDef {
public:
    explicit GemmBatchNormScalingSoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmBatchNormScalingSoftmaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REDUCE_WORK = 1024;

// 输入 y = x @ W^T + bias（GEMM 在 binding 中用 cube 完成），本 kernel 融合：
//   BatchNorm1d（训练模式，按 batch 统计均值 / 有偏方差）-> 乘 scale -> 按行 softmax
// 阶段一（按列切核）：两遍扫描求 mean、var，得到每列仿射系数
//     a = scale * gamma / sqrt(var + eps)，  b = scale * (beta - mean * gamma / sqrt(var + eps))
//   写入 workspace
// SyncAll 全核同步
// 阶段二（按行切核）：z = y * a + b，再做数值稳定的 softmax
class GemmBnScaleSoftmaxKernel {
public:
    __aicore__ inline GemmBnScaleSoftmaxKernel() {}
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale, GM_ADDR out,
                                GM_ADDR workspace, const GemmBatchNormScalingSoftmaxCustomTilingData& td)
    {
        M = td.M;
        N = td.N;
        colPerCore = td.colPerCore;
        rowTile = td.rowTile;
        rowPerCore = td.rowPerCore;
        eps = td.eps;
        blockIdx = GetBlockIdx();

        yGm.SetGlobalBuffer((__gm__ float*)y);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma);
        betaGm.SetGlobalBuffer((__gm__ float*)beta);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale);
        outGm.SetGlobalBuffer((__gm__ float*)out);
        coefGm.SetGlobalBuffer((__gm__ float*)workspace);   // [0, N): a，[N, 2N): b

        scaleVal = scaleGm.GetValue(0);
    }

    __aicore__ inline void Process()
    {
        ColumnStats();
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        pipe.Reset();
        RowSoftmax();
    }

private:
    // ---------------- 阶段一：列统计 ----------------
    __aicore__ inline void ColumnStats()
    {
        uint32_t c0 = blockIdx * colPerCore;
        if (c0 >= N) {
            return;
        }
        uint32_t cw = (c0 + colPerCore <= N) ? colPerCore : (N - c0);   // N 为 8 的倍数，cw 也是

        pipe.InitBuffer(blkQue, BUFFER_NUM, rowTile * cw * sizeof(float));
        pipe.InitBuffer(coefQue, 1, 2 * cw * sizeof(float));
        pipe.InitBuffer(sumBuf, cw * sizeof(float));
        pipe.InitBuffer(meanBuf, cw * sizeof(float));
        pipe.InitBuffer(tmpBuf, cw * sizeof(float));

        LocalTensor<float> sum = sumBuf.Get<float>();
        LocalTensor<float> mean = meanBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        float invM = 1.0f / static_cast<float>(M);

        // 第一遍：均值
        Duplicate(sum, 0.0f, cw);
        for (uint32_t r0 = 0; r0 < M; r0 += rowTile) {
            uint32_t rn = (r0 + rowTile <= M) ? rowTile : (M - r0);
            LoadBlock(r0, rn, c0, cw);
            LocalTensor<float> blk = blkQue.DeQue<float>();
            for (uint32_t r = 0; r < rn; ++r) {
                Add(sum, sum, blk[r * cw], cw);
            }
            blkQue.FreeTensor(blk);
        }
        Muls(mean, sum, invM, cw);

        // 第二遍：有偏方差 E[(y - mean)^2]，比 E[y^2] - mean^2 数值更稳
        Duplicate(sum, 0.0f, cw);
        for (uint32_t r0 = 0; r0 < M; r0 += rowTile) {
            uint32_t rn = (r0 + rowTile <= M) ? rowTile : (M - r0);
            LoadBlock(r0, rn, c0, cw);
            LocalTensor<float> blk = blkQue.DeQue<float>();
            for (uint32_t r = 0; r < rn; ++r) {
                Sub(tmp, blk[r * cw], mean, cw);
                Mul(tmp, tmp, tmp, cw);
                Add(sum, sum, tmp, cw);
            }
            blkQue.FreeTensor(blk);
        }

        // 读入本列段的 gamma、beta（借用 coef 缓冲）
        LocalTensor<float> coef = coefQue.AllocTensor<float>();
        LocalTensor<float> a = coef;
        LocalTensor<float> b = coef[cw];
        DataCopy(a, gammaGm[c0], cw);
        DataCopy(b, betaGm[c0], cw);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);

        // invStd = 1 / sqrt(var + eps)
        Muls(sum, sum, invM, cw);
        Adds(sum, sum, eps, cw);
        Sqrt(sum, sum, cw);
        Duplicate(tmp, 1.0f, cw);
        Div(sum, tmp, sum, cw);
        // a = scale * gamma * invStd
        Mul(a, a, sum, cw);
        Muls(a, a, scaleVal, cw);
        // b = scale * beta - mean * a
        Muls(b, b, scaleVal, cw);
        Mul(tmp, mean, a, cw);
        Sub(b, b, tmp, cw);
        coefQue.EnQue(coef);

        coef = coefQue.DeQue<float>();
        DataCopy(coefGm[c0], coef, cw);
        DataCopy(coefGm[N + c0], coef[cw], cw);
        coefQue.FreeTensor(coef);
    }

    __aicore__ inline void LoadBlock(uint32_t r0, uint32_t rn, uint32_t c0, uint32_t cw)
    {
        LocalTensor<float> blk = blkQue.AllocTensor<float>();
        DataCopyParams cp;
        cp.blockCount = static_cast<uint16_t>(rn);
        cp.blockLen = static_cast<uint16_t>(cw * sizeof(float) / 32);
        cp.srcStride = static_cast<uint16_t>((N - cw) * sizeof(float) / 32);
        cp.dstStride = 0;
        DataCopy(blk, yGm[(uint64_t)r0 * N + c0], cp);
        blkQue.EnQue(blk);
    }

    // ---------------- 阶段二：行 softmax ----------------
    __aicore__ inline void RowSoftmax()
    {
        uint32_t r0 = blockIdx * rowPerCore;
        if (r0 >= M) {
            return;
        }
        uint32_t r1 = (r0 + rowPerCore <= M) ? (r0 + rowPerCore) : M;

        pipe.InitBuffer(abBuf, 2 * N * sizeof(float));
        pipe.InitBuffer(rowInQue, 1, N * sizeof(float));
        pipe.InitBuffer(rowOutQue, 1, N * sizeof(float));
        pipe.InitBuffer(workBuf, (REDUCE_WORK + 8) * sizeof(float));

        LocalTensor<float> ab = abBuf.Get<float>();
        DataCopy(ab, coefGm, 2 * N);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
        LocalTensor<float> a = ab;
        LocalTensor<float> b = ab[N];
        LocalTensor<float> red = workBuf.Get<float>();
        LocalTensor<float> work = red[8];

        for (uint32_t r = r0; r < r1; ++r) {
            LocalTensor<float> inRow = rowInQue.AllocTensor<float>();
            DataCopy(inRow, yGm[(uint64_t)r * N], N);
            rowInQue.EnQue(inRow);
            inRow = rowInQue.DeQue<float>();

            LocalTensor<float> z = rowOutQue.AllocTensor<float>();
            Mul(z, inRow, a, N);
            Add(z, z, b, N);
            rowInQue.FreeTensor(inRow);

            ReduceMax(red, z, work, N, false);
            event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            float rowMax = red.GetValue(0);
            event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);

            Adds(z, z, -rowMax, N);
            Exp(z, z, N);
            ReduceSum(red, z, work, N);
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            float rowSum = red.GetValue(0);
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);
            Muls(z, z, 1.0f / rowSum, N);

            rowOutQue.EnQue(z);
            z = rowOutQue.DeQue<float>();
            DataCopy(outGm[(uint64_t)r * N], z, N);
            rowOutQue.FreeTensor(z);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> blkQue;
    TQue<TPosition::VECOUT, 1> coefQue;
    TBuf<TPosition::VECCALC> sumBuf, meanBuf, tmpBuf;
    TBuf<TPosition::VECCALC> abBuf, workBuf;
    TQue<TPosition::VECIN, 1> rowInQue;
    TQue<TPosition::VECOUT, 1> rowOutQue;

    GlobalTensor<float> yGm, gammaGm, betaGm, scaleGm, outGm, coefGm;
    uint32_t M, N, colPerCore, rowTile, rowPerCore, blockIdx;
    float eps, scaleVal;
};

extern "C" __global__ __aicore__ void gemm_batch_norm_scaling_softmax_custom(
    GM_ADDR y, GM_ADDR gamma, GM_ADDR beta, GM_ADDR scale, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR usrWorkspace = AscendC::GetUserWorkspace(workspace);
    GemmBnScaleSoftmaxKernel op;
    op.Init(y, gamma, beta, scale, out, usrWorkspace, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// GEMM 交给 NPU 的 cube（at::addmm），BN + scale + softmax 走自定义融合 kernel。
// 注：训练模式 BN 会减去按 batch 的均值，bias 实际会被抵消，这里仍保留以保持与参考实现一致。
at::Tensor gemm_batch_norm_scaling_softmax_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                    const at::Tensor& bias, const at::Tensor& gamma,
                                                    const at::Tensor& beta, const at::Tensor& scale, double eps)
{
    at::Tensor y = at::addmm(bias, x, weight.t()).contiguous();
    at::Tensor out = at::empty_like(y);
    at::Tensor g = gamma.contiguous();
    at::Tensor b = beta.contiguous();
    at::Tensor s = scale.reshape({-1}).contiguous();
    EXEC_NPU_CMD(aclnnGemmBatchNormScalingSoftmaxCustom, y, g, b, s, eps, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_batch_norm_scaling_softmax_custom", &gemm_batch_norm_scaling_softmax_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_batch_norm_scaling_softmax_custom", &gemm_batch_norm_scaling_softmax_impl_npu,
          "linear + batchnorm1d(train) + scale + softmax");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, bn_eps=1e-5, bn_momentum=0.1, scale_shape=(1,)):
        super(ModelNew, self).__init__()
        self.gemm = torch.nn.Linear(in_features, out_features)
        self.bn = torch.nn.BatchNorm1d(out_features, eps=bn_eps, momentum=bn_momentum)
        self.scale = torch.nn.Parameter(torch.ones(scale_shape))

    def forward(self, x):
        return custom_ops_lib.gemm_batch_norm_scaling_softmax_custom(
            x, self.gemm.weight, self.gemm.bias, self.bn.weight, self.bn.bias, self.scale, self.bn.eps)
'''
