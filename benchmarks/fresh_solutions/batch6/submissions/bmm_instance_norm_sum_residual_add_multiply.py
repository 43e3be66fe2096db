project_json_src='''
[
    {
        "op": "BmmInstanceNormSumResidualAddMultiplyCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "z",
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
BEGIN_TILING_DATA_DEF(BmmInstanceNormSumResidualAddMultiplyCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowNum);        // 行数 (batch_size)
  TILING_DATA_FIELD_DEF(uint32_t, colNum);        // 每行元素个数 (out_features)
  TILING_DATA_FIELD_DEF(uint32_t, colAligned);    // 按 32B 对齐后的列数
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // 每个核处理的行数 (前 tailCore 个核多 1 行)
  TILING_DATA_FIELD_DEF(uint32_t, tailCore);      // 多分 1 行的核数
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invCol);           // 1 / colNum
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BmmInstanceNormSumResidualAddMultiplyCustom, BmmInstanceNormSumResidualAddMultiplyCustomTilingData)
}
"""

host_operator_src="""
#include "bmm_instance_norm_sum_residual_add_multiply_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 一行数据整行放进 UB: x / y / z / tmp 四块, 每块 colAligned 个 float
constexpr uint32_t MAX_COL = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BmmInstanceNormSumResidualAddMultiplyCustomTilingData tiling;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t dimNum = shape.GetDimNum();
    uint32_t colNum = static_cast<uint32_t>(shape.GetDim(dimNum - 1));
    uint32_t rowNum = static_cast<uint32_t>(shape.GetShapeSize() / colNum);
    if (colNum == 0 || colNum > MAX_COL) {
        return ge::GRAPH_FAILED;
    }
    uint32_t colAligned = (colNum + 7) / 8 * 8;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t usedCore = rowNum < coreNum ? rowNum : coreNum;
    if (usedCore == 0) {
        usedCore = 1;
    }

    const float *epsPtr = context->GetAttrs()->GetAttrPointer<float>(0);
    float eps = (epsPtr == nullptr) ? 1e-5f : *epsPtr;

    tiling.set_rowNum(rowNum);
    tiling.set_colNum(colNum);
    tiling.set_colAligned(colAligned);
    tiling.set_rowsPerCore(rowNum / usedCore);
    tiling.set_tailCore(rowNum % usedCore);
    tiling.set_eps(eps);
    tiling.set_invCol(1.0f / static_cast<float>(colNum));

    context->SetBlockDim(usedCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
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
class BmmInstanceNormSumResidualAddMultiplyCustom : public OpDef {
public:
    explicit BmmInstanceNormSumResidualAddMultiplyCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(BmmInstanceNormSumResidualAddMultiplyCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// 融合算子: 对 Linear 的输出逐行做 InstanceNorm (unsqueeze 之后 H=1, W=out_features,
// 所以等价于逐行归一化, 无 affine), 然后 (norm + y) * y
class KernelRowNormAddMul {
public:
    __aicore__ inline KernelRowNormAddMul() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                uint32_t colNum, uint32_t colAligned, uint32_t rowsPerCore,
                                uint32_t tailCore, float eps, float invCol)
    {
        this->colNum = colNum;
        this->colAligned = colAligned;
        this->eps = eps;
        this->invCol = invCol;

        // 前 tailCore 个核每个多处理一行
        uint32_t blockIdx = GetBlockIdx();
        uint32_t startRow;
        if (blockIdx < tailCore) {
            myRows = rowsPerCore + 1;
            startRow = blockIdx * myRows;
        } else {
            myRows = rowsPerCore;
            startRow = tailCore * (rowsPerCore + 1) + (blockIdx - tailCore) * rowsPerCore;
        }
        uint64_t offset = static_cast<uint64_t>(startRow) * colNum;
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, static_cast<uint64_t>(myRows) * colNum);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, static_cast<uint64_t>(myRows) * colNum);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, static_cast<uint64_t>(myRows) * colNum);

        uint32_t rowBytes = colAligned * sizeof(float);
        pipe.InitBuffer(xQue, 1, rowBytes);
        pipe.InitBuffer(yQue, 1, rowBytes);
        pipe.InitBuffer(zQue, 1, rowBytes);
        pipe.InitBuffer(sqBuf, rowBytes);
        pipe.InitBuffer(workBuf, rowBytes);
        pipe.InitBuffer(statBuf, 64);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<float> xLocal = xQue.AllocTensor<float>();
        LocalTensor<float> yLocal = yQue.AllocTensor<float>();
        // 列数不一定是 8 的倍数, 用 DataCopyPad 搬运
        DataCopyExtParams cp{1, static_cast<uint32_t>(colNum * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[static_cast<uint64_t>(r) * colNum], cp, pad);
        DataCopyPad(yLocal, yGm[static_cast<uint64_t>(r) * colNum], cp, pad);
        xQue.EnQue(xLocal);
        yQue.EnQue(yLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = xQue.DeQue<float>();
        LocalTensor<float> yLocal = yQue.DeQue<float>();
        LocalTensor<float> zLocal = zQue.AllocTensor<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();

        // 1. 均值
        ReduceSum<float>(stat, xLocal, work, colNum);
        event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float mean = stat.GetValue(0) * invCol;
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);

        // 2. 去均值, 求方差 (有偏方差, 与 InstanceNorm 一致)
        Adds(xLocal, xLocal, -mean, colNum);
        Mul(sq, xLocal, xLocal, colNum);
        PipeBarrier<PIPE_V>();
        ReduceSum<float>(stat, sq, work, colNum);
        PipeBarrier<PIPE_V>();
        // std = sqrt(var + eps), 只对 1 个元素做向量运算, 避免标量侧开方
        Muls(stat, stat, invCol, 1);
        PipeBarrier<PIPE_V>();
        Adds(stat, stat, eps, 1);
        PipeBarrier<PIPE_V>();
        Sqrt(stat, stat, 1);
        SetFlag<HardEvent::V_S>(evVS);
        WaitFlag<HardEvent::V_S>(evVS);
        float rstd = 1.0f / stat.GetValue(0);
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);

        // 3. z = (x_norm + y) * y
        Muls(xLocal, xLocal, rstd, colNum);
        Add(xLocal, xLocal, yLocal, colNum);
        Mul(zLocal, xLocal, yLocal, colNum);

        zQue.EnQue(zLocal);
        xQue.FreeTensor(xLocal);
        yQue.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<float> zLocal = zQue.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(colNum * sizeof(float)), 0, 0, 0};
        DataCopyPad(zGm[static_cast<uint64_t>(r) * colNum], zLocal, cp);
        zQue.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> xQue, yQue;
    TQue<QuePosition::VECOUT, 1> zQue;
    TBuf<TPosition::VECCALC> sqBuf, workBuf, statBuf;
    GlobalTensor<float> xGm, yGm, zGm;
    uint32_t colNum = 0;
    uint32_t colAligned = 0;
    uint32_t myRows = 0;
    float eps = 1e-5f;
    float invCol = 0.0f;
};

extern "C" __global__ __aicore__ void bmm_instance_norm_sum_residual_add_multiply_custom(
    GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelRowNormAddMul op;
    op.Init(x, y, z, td.colNum, td.colAligned, td.rowsPerCore, td.tailCore, td.eps, td.invCol);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear 部分直接走 addmm (cube), 后面的 norm + 残差 + 乘法融合到自定义算子里
at::Tensor bmm_instance_norm_sum_residual_add_multiply_impl_npu(
    const at::Tensor& x, const at::Tensor& y,
    const at::Tensor& weight, const at::Tensor& bias, double eps)
{
    at::Tensor lin = at::addmm(bias, x, weight.t()).contiguous();
    at::Tensor yc = y.contiguous();
    at::Tensor out = at::empty_like(lin);
    EXEC_NPU_CMD(aclnnBmmInstanceNormSumResidualAddMultiplyCustom, lin, yc, eps, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bmm_instance_norm_sum_residual_add_multiply_custom",
           &bmm_instance_norm_sum_residual_add_multiply_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bmm_instance_norm_sum_residual_add_multiply_custom",
          &bmm_instance_norm_sum_residual_add_multiply_impl_npu,
          "linear -> row instance norm -> (+y) -> (*y)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.bmm = torch.nn.Linear(in_features, out_features)
        self.eps = eps

    def forward(self, x, y):
        return custom_ops_lib.bmm_instance_norm_sum_residual_add_multiply_custom(
            x, y, self.bmm.weight, self.bmm.bias, self.eps)
'''
