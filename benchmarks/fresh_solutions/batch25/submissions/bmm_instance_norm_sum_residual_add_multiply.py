project_json_src='''
[
    {
        "op": "BmmInstanceNormSumResidualAddMultiplyCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "z", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BmmInstanceNormSumResidualAddMultiplyCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowNum);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take formerRows
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);      // rows for remaining cores
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BmmInstanceNormSumResidualAddMultiplyCustom, BmmInstanceNormSumResidualAddMultiplyCustomTilingData)
}
"""

host_operator_src="""
#include "bmm_instance_norm_sum_residual_add_multiply_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_ROW_LEN = 8192;   // whole row must fit one 32KB UB slot

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BmmInstanceNormSumResidualAddMultiplyCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t rowLen = shape.GetDim(shape.GetDimNum() - 1);
    uint32_t rowNum = shape.GetShapeSize() / rowLen;
    if (rowLen > MAX_ROW_LEN || rowLen % 8 != 0) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;
    if (coreNum > rowNum) coreNum = rowNum;

    // former/tail split: the first (rowNum % coreNum) cores do one extra row
    uint32_t base = rowNum / coreNum;
    uint32_t extra = rowNum % coreNum;
    tiling.set_rowNum(rowNum);
    tiling.set_rowLen(rowLen);
    tiling.set_formerNum(extra);
    tiling.set_formerRows(base + 1);
    tiling.set_tailRows(base);

    const float* epsAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    tiling.set_eps(epsAttr != nullptr ? *epsAttr : 1e-5f);

    context->SetBlockDim(coreNum);
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
class BmmInstanceNormSumResidualAddMultiplyCustom : public OpDef {
public:
    explicit BmmInstanceNormSumResidualAddMultiplyCustom(const char* name) : OpDef(name)
    {
        this->Input("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

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

// InstanceNorm2d on (B, 1, 1, F) == per-row normalization over F (biased var,
// no affine). Then out = (norm + y) * y. One row per iteration.
class KernelRowNormResMul {
public:
    __aicore__ inline KernelRowNormResMul() {}
    __aicore__ inline void Init(GM_ADDR z, GM_ADDR y, GM_ADDR out, uint32_t rowLen,
                                uint32_t formerNum, uint32_t formerRows, uint32_t tailRows, float eps)
    {
        this->rowLen = rowLen;
        this->eps = eps;
        uint32_t core = AscendC::GetBlockIdx();
        uint64_t firstRow;
        if (core < formerNum) {
            rows = formerRows;
            firstRow = (uint64_t)core * formerRows;
        } else {
            rows = tailRows;
            firstRow = (uint64_t)formerNum * formerRows + (uint64_t)(core - formerNum) * tailRows;
        }
        uint64_t off = firstRow * rowLen;
        zGm.SetGlobalBuffer((__gm__ float*)z + off, (uint64_t)rows * rowLen);
        yGm.SetGlobalBuffer((__gm__ float*)y + off, (uint64_t)rows * rowLen);
        oGm.SetGlobalBuffer((__gm__ float*)out + off, (uint64_t)rows * rowLen);

        uint32_t bytes = rowLen * sizeof(float);
        pipe.InitBuffer(zQue, 2, bytes);
        pipe.InitBuffer(yQue, 2, bytes);
        pipe.InitBuffer(oQue, 1, bytes);
        pipe.InitBuffer(redBuf, 512 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rows; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        AscendC::LocalTensor<float> zl = zQue.AllocTensor<float>();
        AscendC::LocalTensor<float> yl = yQue.AllocTensor<float>();
        AscendC::DataCopy(zl, zGm[(uint64_t)r * rowLen], rowLen);
        AscendC::DataCopy(yl, yGm[(uint64_t)r * rowLen], rowLen);
        zQue.EnQue(zl);
        yQue.EnQue(yl);
    }

    __aicore__ inline float ReadScalar(AscendC::LocalTensor<float>& t)
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        return t.GetValue(0);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> zl = zQue.DeQue<float>();
        AscendC::LocalTensor<float> yl = yQue.DeQue<float>();
        AscendC::LocalTensor<float> ol = oQue.AllocTensor<float>();
        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        AscendC::LocalTensor<float> work = red[64];
        float invN = 1.0f / static_cast<float>(rowLen);

        // mean
        AscendC::ReduceSum<float>(red, zl, work, rowLen);
        float mean = ReadScalar(red) * invN;
        AscendC::Adds(zl, zl, -mean, rowLen);

        // biased variance; ol is scratch at this point
        AscendC::Mul(ol, zl, zl, rowLen);
        AscendC::ReduceSum<float>(red, ol, work, rowLen);
        AscendC::Muls(red, red, invN, 8);
        AscendC::Adds(red, red, eps, 8);
        AscendC::Sqrt(red, red, 8);
        float inv = 1.0f / ReadScalar(red);

        // (x_hat + y) * y
        AscendC::Muls(zl, zl, inv, rowLen);
        AscendC::Add(zl, zl, yl, rowLen);
        AscendC::Mul(ol, zl, yl, rowLen);

        oQue.EnQue(ol);
        zQue.FreeTensor(zl);
        yQue.FreeTensor(yl);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        AscendC::LocalTensor<float> ol = oQue.DeQue<float>();
        AscendC::DataCopy(oGm[(uint64_t)r * rowLen], ol, rowLen);
        oQue.FreeTensor(ol);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> zQue, yQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> oQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> redBuf;
    AscendC::GlobalTensor<float> zGm, yGm, oGm;
    uint32_t rowLen;
    uint32_t rows;
    float eps;
};

extern "C" __global__ __aicore__ void bmm_instance_norm_sum_residual_add_multiply_custom(
    GM_ADDR z, GM_ADDR y, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRowNormResMul op;
    op.Init(z, y, out, tilingData.rowLen, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.eps);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor bmm_instance_norm_sum_residual_add_multiply_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& y, const at::Tensor& weight, const at::Tensor& bias, double eps)
{
    // Linear on the cube unit; normalization + residual epilogue in the custom kernel
    at::Tensor z = at::addmm(bias, x, weight.t()).contiguous();
    at::Tensor yc = y.contiguous();
    at::Tensor out = at::empty_like(z);
    float epsF = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnBmmInstanceNormSumResidualAddMultiplyCustom, z, yc, epsF, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bmm_instance_norm_sum_residual_add_multiply_custom",
           &bmm_instance_norm_sum_residual_add_multiply_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bmm_instance_norm_sum_residual_add_multiply_custom",
          &bmm_instance_norm_sum_residual_add_multiply_custom_impl_npu,
          "linear -> instance norm over features -> (x + y) * y");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, eps=1e-5, momentum=0.1):
        super(ModelNew, self).__init__()
        self.bmm = nn.Linear(in_features, out_features)
        self.eps = eps

    def forward(self, x, y):
        return custom_ops_lib.bmm_instance_norm_sum_residual_add_multiply_custom(
            x, y, self.bmm.weight, self.bmm.bias, self.eps)
'''
