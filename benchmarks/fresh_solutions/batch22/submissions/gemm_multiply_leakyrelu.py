project_json_src='''
[
    {
        "op": "GemmMultiplyLeakyreluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "multiplier", "param_type": "required", "type": "float"},
            {"name": "negative_slope", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmMultiplyLeakyreluCustomTilingData)
  TILING_DATA_FIELD_DEF(float, multiplier);
  TILING_DATA_FIELD_DEF(float, negSlope);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmMultiplyLeakyreluCustom, GemmMultiplyLeakyreluCustomTilingData)
}
"""

host_operator_src="""
#include "gemm_multiply_leakyrelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    int32_t M = xShape.GetDim(0);
    int32_t K = xShape.GetDim(1);
    int32_t N = wShape.GetDim(0);
    const auto *attrs = context->GetAttrs();
    float mult = *attrs->GetAttrPointer<float>(0);
    float slope = *attrs->GetAttrPointer<float>(1);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aicNum = plat.GetCoreNumAic();
    uint32_t aivNum = plat.GetCoreNumAiv();

    MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aivNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
    mm.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true);   // nn.Linear weight (N, K)
    mm.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);      // tiles land in UB for the epilogue
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(true);
    mm.SetFixSplit(128, 128, -1);
    mm.SetBufferSpace(-1, -1, -1);

    GemmMultiplyLeakyreluCustomTilingData td;
    if (mm.GetTiling(td.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_multiplier(mult);
    td.set_negSlope(slope);

    context->SetBlockDim(aicNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(2);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmMultiplyLeakyreluCustom : public OpDef {
public:
    explicit GemmMultiplyLeakyreluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("multiplier").Float();
        this->Attr("negative_slope").Float();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GemmMultiplyLeakyreluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using aType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using bType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
using cType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using biasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// y = leaky_relu((x W^T + b) * multiplier)
// Every baseM x baseN result tile is pulled into UB, scaled and rectified in one pass,
// then written to its place in y.
class GemmMulLeakyKernel {
public:
    __aicore__ inline GemmMulLeakyKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const TCubeTiling &t, float mult, float slope)
    {
        tiling = t;
        multiplier = mult;
        negSlope = slope;
        // locate this core's (singleCoreM x singleCoreN) sub-matrix
        uint32_t mBlocks = CeilDivU(tiling.M, tiling.singleCoreM);
        uint32_t idx = GetBlockIdx();
        uint32_t mIdx = idx % mBlocks;
        uint32_t nIdx = idx / mBlocks;
        mOff = mIdx * tiling.singleCoreM;
        nOff = nIdx * tiling.singleCoreN;
        valid = (mOff < (uint32_t)tiling.M) && (nOff < (uint32_t)tiling.N);
        if (valid) {
            tailM = (uint32_t)tiling.M - mOff < (uint32_t)tiling.singleCoreM ? tiling.M - mOff : tiling.singleCoreM;
            tailN = (uint32_t)tiling.N - nOff < (uint32_t)tiling.singleCoreN ? tiling.N - nOff : tiling.singleCoreN;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + (uint64_t)mOff * tiling.Ka);
        wGm.SetGlobalBuffer((__gm__ float *)w + (uint64_t)nOff * tiling.Kb);
        bGm.SetGlobalBuffer((__gm__ float *)b + nOff);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(tileQ, 2, tiling.baseM * tiling.baseN * sizeof(float));
        pipe.InitBuffer(outQ, 2, tiling.baseM * tiling.baseN * sizeof(float));
    }

    __aicore__ inline void Process(Matmul<aType, bType, cType, biasType> &mm)
    {
        if (!valid) return;
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(bGm);
        mm.SetTail(tailM, tailN, tiling.Ka);

        uint32_t nIter = CeilDivU(tailN, tiling.baseN);
        uint32_t mIter = CeilDivU(tailM, tiling.baseM);
        uint32_t count = 0;
        while (mm.Iterate()) {
            LocalTensor<float> c = tileQ.AllocTensor<float>();
            mm.GetTensorC(c);
            tileQ.EnQue(c);

            // tile coordinates; iterateOrder 0 walks M first, 1 walks N first
            uint32_t mi, ni;
            if (tiling.iterateOrder == 0) { mi = count % mIter; ni = count / mIter; }
            else                          { ni = count % nIter; mi = count / nIter; }
            Epilogue(mi, ni);
            ++count;
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue(uint32_t mi, uint32_t ni)
    {
        uint32_t baseM = tiling.baseM, baseN = tiling.baseN;
        uint32_t r = (mi + 1) * baseM > tailM ? tailM - mi * baseM : baseM;
        uint32_t cl = (ni + 1) * baseN > tailN ? tailN - ni * baseN : baseN;

        LocalTensor<float> c = tileQ.DeQue<float>();
        LocalTensor<float> o = outQ.AllocTensor<float>();
        Muls(o, c, multiplier, baseM * baseN);
        LeakyRelu(o, o, negSlope, baseM * baseN);
        outQ.EnQue(o);
        tileQ.FreeTensor(c);

        o = outQ.DeQue<float>();
        uint64_t dst = (uint64_t)(mOff + mi * baseM) * tiling.N + nOff + ni * baseN;
        DataCopyExtParams cp{(uint16_t)r, cl * (uint32_t)sizeof(float),
                             (uint32_t)((baseN - cl) * sizeof(float) / 32),
                             (uint32_t)((tiling.N - cl) * sizeof(float)), 0};
        DataCopyPad(yGm[dst], o, cp);
        outQ.FreeTensor(o);
    }

public:
    TPipe pipe;
private:
    TQue<QuePosition::VECIN, 2> tileQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    TCubeTiling tiling;
    float multiplier, negSlope;
    uint32_t mOff, nOff, tailM, tailN;
    bool valid;
};

extern "C" __global__ __aicore__ void gemm_multiply_leakyrelu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetUserWorkspace(workspace) == nullptr) return;
    GemmMulLeakyKernel op;
    Matmul<aType, bType, cType, biasType> mm;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mm, &td.cube);
    op.Init(x, weight, bias, y, td.cube, td.multiplier, td.negSlope);
    op.Process(mm);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gemm_multiply_leakyrelu_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                            double multiplier, double negative_slope)
{
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    float mult = static_cast<float>(multiplier);
    float slope = static_cast<float>(negative_slope);
    EXEC_NPU_CMD(aclnnGemmMultiplyLeakyreluCustom, x, weight, bias, mult, slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_multiply_leakyrelu_custom", &gemm_multiply_leakyrelu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_multiply_leakyrelu_custom", &gemm_multiply_leakyrelu_impl_npu, "leaky_relu((x W^T + b) * m)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super(ModelNew, self).__init__()
        self.gemm = torch.nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.negative_slope = negative_slope

    def forward(self, x):
        return custom_ops_lib.gemm_multiply_leakyrelu_custom(
            x, self.gemm.weight, self.gemm.bias, self.multiplier, self.negative_slope)
'''
