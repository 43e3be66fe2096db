project_json_src='''
[
    {
        "op": "MatmulMishMishCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            },
            {
                "name": "weight",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": [
                    "ND"
                ],
                "type": [
                    "float"
                ]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulMishMishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, M);
  TILING_DATA_FIELD_DEF(uint32_t, N);
  TILING_DATA_FIELD_DEF(uint32_t, K);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulMishMishCustom, MatmulMishMishCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_mish_mish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
// base block handed from the cube unit to the vector unit for the Mish epilogue.
// 128 x 64 fp32 = 32 KB, leaving room for two scratch tiles and the output tile in UB.
constexpr int32_t BASE_M = 128;
constexpr int32_t BASE_N = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const auto& xShape = context->GetInputShape(0)->GetStorageShape();   // (M, K)
    const auto& wShape = context->GetInputShape(1)->GetStorageShape();   // (N, K), nn.Linear layout
    int32_t M = xShape.GetDim(0);
    int32_t K = xShape.GetDim(1);
    int32_t N = wShape.GetDim(0);
    if (wShape.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = plat.GetCoreNumAiv();
    uint32_t aicNum = plat.GetCoreNumAic();

    MultiCoreMatmulTiling mmTiling(plat);
    mmTiling.SetDim(aivNum);   // matmul is driven from the vector cores
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mmTiling.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mmTiling.SetShape(M, N, K);
    mmTiling.SetOrgShape(M, N, K);
    mmTiling.SetBias(true);
    mmTiling.SetFixSplit(BASE_M, BASE_N, -1);
    mmTiling.SetBufferSpace(-1, -1, -1);

    MatmulMishMishCustomTilingData tiling;
    tiling.set_M(M);
    tiling.set_N(N);
    tiling.set_K(K);
    if (mmTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }

    // block dim counts cube cores (AIC:AIV = 1:2 on this chip)
    uint32_t used = tiling.cubeTilingData.get_usedCoreNum();
    uint32_t blockDim = (used + 1) / 2;
    if (blockDim == 0) blockDim = 1;
    if (blockDim > aicNum) blockDim = aicNum;
    context->SetBlockDim(blockDim);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();   // system workspace needed by the Matmul API
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulMishMishCustom : public OpDef {
public:
    explicit MatmulMishMishCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulMishMishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// mish(x) = x * tanh(softplus(x)); with t = e^x, tanh(log(1+t)) = t(t+2) / (t(t+2) + 2).
// The exponent is capped at 20: beyond that the ratio is 1 to fp32 precision.
constexpr float MISH_EXP_CAP = 20.0f;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

class KernelMatmulMishMish {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline KernelMatmulMishMish() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, const TCubeTiling& t)
    {
        tiling = t;
        xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(t.M) * t.Ka);
        wGm.SetGlobalBuffer((__gm__ float*)w, static_cast<uint64_t>(t.N) * t.Kb);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, t.N);
        yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(t.M) * t.N);

        // which (singleCoreM x singleCoreN) slab of C this core owns
        uint32_t mBlocks = CeilDiv(t.M, t.singleCoreM);
        uint32_t idx = GetBlockIdx();
        uint32_t mIdx = idx % mBlocks;
        uint32_t nIdx = idx / mBlocks;
        rowBase = mIdx * t.singleCoreM;
        colBase = nIdx * t.singleCoreN;
        curM = (t.M - rowBase < static_cast<uint32_t>(t.singleCoreM)) ? t.M - rowBase : t.singleCoreM;
        curN = (t.N - colBase < static_cast<uint32_t>(t.singleCoreN)) ? t.N - colBase : t.singleCoreN;

        tileElems = t.baseM * t.baseN;
        pipe.InitBuffer(cQueue, 1, tileElems * sizeof(float));
        pipe.InitBuffer(yQueue, 1, tileElems * sizeof(float));
        pipe.InitBuffer(tmpA, tileElems * sizeof(float));
        pipe.InitBuffer(tmpB, tileElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        mm.SetTensorA(xGm[static_cast<uint64_t>(rowBase) * tiling.Ka]);
        mm.SetTensorB(wGm[static_cast<uint64_t>(colBase) * tiling.Kb], true);
        mm.SetBias(biasGm[colBase]);
        if (curM != static_cast<uint32_t>(tiling.singleCoreM) || curN != static_cast<uint32_t>(tiling.singleCoreN)) {
            mm.SetTail(curM, curN);
        }

        uint32_t mIters = CeilDiv(curM, tiling.baseM);
        uint32_t step = 0;
        // the API walks the base blocks M-first inside this core's slab
        while (mm.template Iterate<true>()) {
            LocalTensor<float> cLocal = cQueue.AllocTensor<float>();
            mm.template GetTensorC<true>(cLocal, false, true);
            cQueue.EnQue(cLocal);

            uint32_t bm = step % mIters;
            uint32_t bn = step / mIters;
            Epilogue(bm, bn);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void Mish(LocalTensor<float>& dst, LocalTensor<float>& src, uint32_t n)
    {
        LocalTensor<float> t = tmpA.Get<float>();
        LocalTensor<float> q = tmpB.Get<float>();
        Mins(t, src, MISH_EXP_CAP, n);
        Exp(t, t, n);               // t = e^x
        Adds(q, t, 2.0f, n);
        Mul(q, q, t, n);            // q = t (t + 2)
        Adds(t, q, 2.0f, n);
        Div(q, q, t, n);            // tanh(softplus(x))
        Mul(dst, src, q, n);
    }

    __aicore__ inline void Epilogue(uint32_t bm, uint32_t bn)
    {
        LocalTensor<float> cLocal = cQueue.DeQue<float>();
        LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
        Mish(yLocal, cLocal, tileElems);
        Mish(yLocal, yLocal, tileElems);
        yQueue.EnQue(yLocal);
        cQueue.FreeTensor(cLocal);

        yLocal = yQueue.DeQue<float>();
        uint32_t r0 = bm * tiling.baseM;
        uint32_t c0 = bn * tiling.baseN;
        uint32_t rows = (curM - r0 < static_cast<uint32_t>(tiling.baseM)) ? curM - r0 : tiling.baseM;
        uint32_t cols = (curN - c0 < static_cast<uint32_t>(tiling.baseN)) ? curN - c0 : tiling.baseN;
        // tile rows are baseN floats apart in UB, N floats apart in GM
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(rows);
        cp.blockLen = cols * sizeof(float);
        cp.srcStride = (tiling.baseN - cols) * sizeof(float) / 32;
        cp.dstStride = (tiling.N - cols) * sizeof(float);
        cp.rsv = 0;
        uint64_t gmOff = static_cast<uint64_t>(rowBase + r0) * tiling.N + colBase + c0;
        DataCopyPad(yGm[gmOff], yLocal, cp);
        yQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TCubeTiling tiling;
    TQue<QuePosition::VECIN, 1> cQueue;
    TQue<QuePosition::VECOUT, 1> yQueue;
    TBuf<QuePosition::VECCALC> tmpA, tmpB;
    GlobalTensor<float> xGm, wGm, biasGm, yGm;

    uint32_t rowBase = 0;
    uint32_t colBase = 0;
    uint32_t curM = 0;
    uint32_t curN = 0;
    uint32_t tileElems = 0;

public:
    __aicore__ inline TPipe* Pipe() { return &pipe; }
};

extern "C" __global__ __aicore__ void matmul_mish_mish_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if (workspace == nullptr) {
        return;
    }
    SetSysWorkspace(workspace);
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    GET_TILING_DATA(tilingData, tiling);
    if (GetBlockIdx() >= static_cast<uint32_t>(tilingData.cubeTilingData.usedCoreNum)) {
        return;
    }
    KernelMatmulMishMish op;
    REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    op.Init(x, weight, bias, y, tilingData.cubeTilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = mish(mish(x @ W^T + b)); W keeps the nn.Linear (out, in) layout and is read transposed.
at::Tensor matmul_mish_mish_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "x and weight must be 2-D");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor y = at::empty({xc.size(0), wc.size(0)}, xc.options());
    EXEC_NPU_CMD(aclnnMatmulMishMishCustom, xc, wc, bc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_mish_mish_custom", &matmul_mish_mish_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_mish_mish_custom", &matmul_mish_mish_impl_npu, "linear + mish + mish");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        self.linear = torch.nn.Linear(in_features, out_features)

    def forward(self, x):
        return custom_ops_lib.matmul_mish_mish_custom(x, self.linear.weight, self.linear.bias)
'''
