project_json_src='''
[
    {
        "op": "GemmReluDivideCustom",
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
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "2.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmReluDivideCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
  TILING_DATA_FIELD_DEF(float, invDivisor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmReluDivideCustom, GemmReluDivideCustomTilingData)
}
"""

host_operator_src="""
#include "gemm_relu_divide_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
// y = relu(x @ W^T + b) / divisor ;  x: (M, K), W: (N, K), b: (N)
constexpr int32_t BASE_M = 128;
constexpr int32_t BASE_N = 128;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();
    int32_t M = static_cast<int32_t>(xs.GetDim(0));
    int32_t K = static_cast<int32_t>(xs.GetDim(1));
    int32_t N = static_cast<int32_t>(ws.GetDim(0));
    if (ws.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }

    const float* divPtr = context->GetAttrs()->GetAttrPointer<float>(0);
    float divisor = divPtr ? *divPtr : 2.0f;

    int32_t aicNum = static_cast<int32_t>(plat.GetCoreNumAic());
    MultiCoreMatmulTiling mm(plat);
    mm.SetDim(aicNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(true);
    mm.SetFixSplit(BASE_M, BASE_N, -1);
    mm.SetBufferSpace(-1, -1, -1);

    GemmReluDivideCustomTilingData tiling;
    if (mm.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_invDivisor(1.0f / divisor);

    // each AIC has its AIV partners; block dim counts cube cores in mix mode
    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* ws0 = context->GetWorkspaceSizes(1);
    ws0[0] = static_cast<size_t>(plat.GetLibApiWorkSpaceSize());
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
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmReluDivideCustom : public OpDef {
public:
    explicit GemmReluDivideCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(2.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmReluDivideCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Cube computes x @ W^T + b one baseM x baseN block at a time; each block is
// delivered to UB (VECIN) where the vector unit applies relu and the 1/divisor
// scale before it is written to y.
template <typename T>
class GemmReluDivideKernel {
public:
    __aicore__ inline GemmReluDivideKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& tiling, float invDivisor, TPipe* pipe)
    {
        this->tiling = tiling;
        this->scale = invDivisor;
        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)tiling.M * tiling.Ka);
        wGm.SetGlobalBuffer((__gm__ T*)w, (uint64_t)tiling.N * tiling.Kb);
        biasGm.SetGlobalBuffer((__gm__ T*)bias, tiling.N);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)tiling.M * tiling.N);

        // locate this core's (singleCoreM x singleCoreN) slab
        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t blk = GetBlockIdx();
        mIdx = blk % mBlocks;
        nIdx = blk / mBlocks;
        uint64_t offA = (uint64_t)mIdx * tiling.singleCoreM * tiling.Ka;
        uint64_t offB = (uint64_t)nIdx * tiling.singleCoreN * tiling.Kb;   // W is (N, K): transposed B
        uint64_t offC = (uint64_t)mIdx * tiling.singleCoreM * tiling.N + (uint64_t)nIdx * tiling.singleCoreN;
        uint64_t offBias = (uint64_t)nIdx * tiling.singleCoreN;
        xGm = xGm[offA];
        wGm = wGm[offB];
        yGm = yGm[offC];
        biasGm = biasGm[offBias];

        // tail handling for the last slab in each direction
        curM = tiling.M - mIdx * tiling.singleCoreM;
        if (curM > (uint32_t)tiling.singleCoreM) curM = tiling.singleCoreM;
        curN = tiling.N - nIdx * tiling.singleCoreN;
        if (curN > (uint32_t)tiling.singleCoreN) curN = tiling.singleCoreN;

        pipe->InitBuffer(resQue, 1, tiling.baseM * tiling.baseN * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (mIdx * tiling.singleCoreM >= (uint32_t)tiling.M || nIdx * tiling.singleCoreN >= (uint32_t)tiling.N) {
            return;
        }
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(curM, curN);

        uint32_t mIters = CeilDiv(curM, tiling.baseM);
        uint32_t iter = 0;
        while (mm.template Iterate<true>()) {
            LocalTensor<T> blockLocal = resQue.AllocTensor<T>();
            mm.template GetTensorC<true>(blockLocal, false, true);

            uint32_t baseCount = tiling.baseM * tiling.baseN;
            Relu(blockLocal, blockLocal, baseCount);
            PipeBarrier<PIPE_V>();
            Muls(blockLocal, blockLocal, scale, baseCount);
            resQue.EnQue(blockLocal);

            // default iteration order walks M first inside the slab
            uint32_t mi = iter % mIters;
            uint32_t ni = iter / mIters;
            StoreBlock(mi, ni);
            ++iter;
        }
        mm.End();
    }

    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, T>,
           MatmulType<TPosition::GM, CubeFormat::ND, T, true>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, T>,
           MatmulType<TPosition::GM, CubeFormat::ND, T>> mm;

private:
    __aicore__ inline void StoreBlock(uint32_t mi, uint32_t ni)
    {
        LocalTensor<T> blockLocal = resQue.DeQue<T>();
        uint32_t rows = curM - mi * tiling.baseM;
        if (rows > (uint32_t)tiling.baseM) rows = tiling.baseM;
        uint32_t cols = curN - ni * tiling.baseN;
        if (cols > (uint32_t)tiling.baseN) cols = tiling.baseN;

        // UB block is baseM x baseN row-major; write rows x cols into y (row pitch N)
        DataCopyExtParams p;
        p.blockCount = (uint16_t)rows;
        p.blockLen = cols * sizeof(T);
        p.srcStride = (tiling.baseN - cols) * sizeof(T) / 32;
        p.dstStride = (tiling.N - cols) * sizeof(T);
        p.rsv = 0;
        uint64_t dst = (uint64_t)mi * tiling.baseM * tiling.N + (uint64_t)ni * tiling.baseN;
        DataCopyPad(yGm[dst], blockLocal, p);
        resQue.FreeTensor(blockLocal);
    }

    TQue<QuePosition::VECIN, 1> resQue;
    GlobalTensor<T> xGm, wGm, biasGm, yGm;
    TCubeTiling tiling;
    float scale;
    uint32_t mIdx, nIdx, curM, curN;
};

extern "C" __global__ __aicore__ void gemm_relu_divide_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GemmReluDivideKernel<float> op;
    TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    op.Init(x, weight, bias, y, tilingData.cubeTilingData, tilingData.invDivisor, &pipe);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gemm_relu_divide_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                            const at::Tensor& bias, double divisor)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expected 2D x and weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor result = at::empty({x.size(0), weight.size(0)}, x.options());
    float div = static_cast<float>(divisor);
    EXEC_NPU_CMD(aclnnGemmReluDivideCustom, xc, wc, bc, div, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_relu_divide_custom", &gemm_relu_divide_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_relu_divide_custom", &gemm_relu_divide_custom_impl_npu, "relu(x @ W^T + b) / divisor");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, divisor):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.divisor = divisor

    def forward(self, x):
        return custom_ops_lib.gemm_relu_divide_custom(x, self.linear.weight, self.linear.bias, self.divisor)
'''
