project_json_src='''
[
    {
        "op": "MatmulSwishScalingCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "a", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "c", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "scaling_factor", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulSwishScalingCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
  TILING_DATA_FIELD_DEF(float, scalingFactor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulSwishScalingCustom, MatmulSwishScalingCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_swish_scaling_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    // a: [M, K]; b: nn.Linear weight [N, K] (used transposed); bias: [N]
    const gert::Shape& aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetOriginShape();
    int32_t M = static_cast<int32_t>(aShape.GetDim(0));
    int32_t K = static_cast<int32_t>(aShape.GetDim(1));
    int32_t N = static_cast<int32_t>(bShape.GetDim(0));

    uint32_t aivNum = platform.GetCoreNumAiv();
    uint32_t aicNum = platform.GetCoreNumAic();

    MultiCoreMatmulTiling mm(platform);
    mm.SetDim(aivNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    // the result goes to UB so the vector side can apply swish before storing
    mm.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.SetBias(true);
    mm.SetFixSplit(64, 128, -1);    // 64x128 fp32 output block = 32KB in UB
    mm.SetBufferSpace(-1, -1, -1);

    MatmulSwishScalingCustomTilingData tiling;
    if (mm.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_scalingFactor(*context->GetAttrs()->GetFloat(0));

    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulSwishScalingCustom : public OpDef {
public:
    explicit MatmulSwishScalingCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scaling_factor").AttrType(REQUIRED).Float();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulSwishScalingCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// C = swish(A * B^T + bias) * scale
// Cube computes one baseM x baseN block at a time into UB (VECIN), the vector
// unit applies x * sigmoid(x) * scale on it and stores it to GM.
template <typename aType, typename bType, typename cType, typename biasType>
class MatmulSwishScalingKernel {
public:
    __aicore__ inline MatmulSwishScalingKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                const TCubeTiling& tilingIn, float scaleIn)
    {
        tiling = tilingIn;
        scale = scaleIn;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ aType*>(a), static_cast<uint64_t>(tiling.M) * tiling.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ bType*>(b), static_cast<uint64_t>(tiling.N) * tiling.Kb);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ cType*>(c), static_cast<uint64_t>(tiling.M) * tiling.N);
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ biasType*>(bias), tiling.N);

        // locate this core's singleCoreM x singleCoreN block
        uint32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        uint32_t blk = GetBlockIdx();
        uint32_t mIdx = blk % mBlocks;
        uint32_t nIdx = blk / mBlocks;
        mStart = mIdx * tiling.singleCoreM;
        nStart = nIdx * tiling.singleCoreN;

        int32_t remM = tiling.M - static_cast<int32_t>(mStart);
        int32_t remN = tiling.N - static_cast<int32_t>(nStart);
        curM = remM < tiling.singleCoreM ? remM : tiling.singleCoreM;
        curN = remN < tiling.singleCoreN ? remN : tiling.singleCoreN;

        aGm = aGm[static_cast<uint64_t>(mStart) * tiling.Ka];
        bGm = bGm[static_cast<uint64_t>(nStart) * tiling.Kb];   // B is [N, K], row block of N
        biasGm = biasGm[nStart];
    }

    __aicore__ inline void Process(TPipe* pipe)
    {
        if (GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum) || curM <= 0 || curN <= 0) {
            return;
        }
        const uint32_t blockElems = tiling.baseM * tiling.baseN;
        pipe->InitBuffer(resQueue, 1, blockElems * sizeof(cType));
        pipe->InitBuffer(sigBuf, blockElems * sizeof(cType));

        matmulObj.SetTensorA(aGm);
        matmulObj.SetTensorB(bGm, true);
        matmulObj.SetBias(biasGm);
        matmulObj.SetTail(curM, curN);

        uint32_t mIter = CeilDiv(curM, tiling.baseM);
        uint32_t iter = 0;
        while (matmulObj.template Iterate<true>()) {
            LocalTensor<cType> res = resQueue.AllocTensor<cType>();
            matmulObj.template GetTensorC<true>(res, false, true);
            SwishScale(res, blockElems);
            resQueue.EnQue(res);
            StoreBlock(iter, mIter);
            ++iter;
        }
        matmulObj.End();
    }

private:
    __aicore__ inline void SwishScale(LocalTensor<cType>& res, uint32_t count)
    {
        LocalTensor<cType> sig = sigBuf.Get<cType>();
        Sigmoid(sig, res, count);
        Mul(res, res, sig, count);
        Muls(res, res, static_cast<cType>(scale), count);
    }

    // Blocks come out M-major inside the core's tile (iterateOrder = ORDER_M).
    __aicore__ inline void StoreBlock(uint32_t iter, uint32_t mIter)
    {
        LocalTensor<cType> res = resQueue.DeQue<cType>();
        uint32_t mi = iter % mIter;
        uint32_t ni = iter / mIter;
        uint32_t rowOff = mi * tiling.baseM;
        uint32_t colOff = ni * tiling.baseN;
        uint32_t rows = (curM - rowOff) < static_cast<uint32_t>(tiling.baseM) ? (curM - rowOff) : tiling.baseM;
        uint32_t cols = (curN - colOff) < static_cast<uint32_t>(tiling.baseN) ? (curN - colOff) : tiling.baseN;

        uint64_t gmOff = static_cast<uint64_t>(mStart + rowOff) * tiling.N + nStart + colOff;
        // UB rows are baseN wide; skip the unused tail of each UB row
        DataCopyExtParams params{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(cType)),
                                 static_cast<uint32_t>((tiling.baseN - cols) * sizeof(cType) / 32),
                                 static_cast<uint32_t>((tiling.N - cols) * sizeof(cType)), 0};
        DataCopyPad(cGm[gmOff], res, params);
        resQueue.FreeTensor(res);
    }

public:
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, aType>,
           MatmulType<TPosition::GM, CubeFormat::ND, bType, true>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, cType>,
           MatmulType<TPosition::GM, CubeFormat::ND, biasType>> matmulObj;

private:
    TCubeTiling tiling;
    float scale;
    GlobalTensor<aType> aGm;
    GlobalTensor<bType> bGm;
    GlobalTensor<cType> cGm;
    GlobalTensor<biasType> biasGm;
    TQue<QuePosition::VECOUT, 1> resQueue;
    TBuf<QuePosition::VECCALC> sigBuf;
    uint32_t mStart = 0;
    uint32_t nStart = 0;
    int32_t curM = 0;
    int32_t curN = 0;
};

extern "C" __global__ __aicore__ void matmul_swish_scaling_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TPipe pipe;
    MatmulSwishScalingKernel<float, float, float, float> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.matmulObj, &tilingData.cubeTilingData);
    op.Init(a, b, bias, c, tilingData.cubeTilingData, tilingData.scalingFactor);
    op.Process(&pipe);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_swish_scaling_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                const at::Tensor& bias, double scaling_factor)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expected 2-D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor a = x.contiguous();
    at::Tensor b = weight.contiguous();
    at::Tensor result = at::empty({a.size(0), b.size(0)}, a.options());
    EXEC_NPU_CMD(aclnnMatmulSwishScalingCustom, a, b, bias, scaling_factor, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_swish_scaling_custom", &matmul_swish_scaling_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_swish_scaling_custom", &matmul_swish_scaling_custom_impl_npu,
          "linear + swish + scaling (fused)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, scaling_factor):
        super().__init__()
        self.matmul = torch.nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return custom_ops_lib.matmul_swish_scaling_custom(
            x, self.matmul.weight, self.matmul.bias, self.scaling_factor)
'''
