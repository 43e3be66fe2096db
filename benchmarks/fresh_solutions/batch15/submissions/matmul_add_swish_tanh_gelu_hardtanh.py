project_json_src='''
[
    {
        "op": "MatmulAddSwishTanhGeluHardtanhCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "weight",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "add_value",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulAddSwishTanhGeluHardtanhCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulAddSwishTanhGeluHardtanhCustom, MatmulAddSwishTanhGeluHardtanhCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_add_swish_tanh_gelu_hardtanh_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xShape = context->GetInputShape(0)->GetOriginShape();
    auto wShape = context->GetInputShape(1)->GetOriginShape();
    int32_t M = xShape.GetDim(0);
    int32_t K = xShape.GetDim(1);
    int32_t N = wShape.GetDim(0);

    matmul_tiling::MultiCoreMatmulTiling cube(ascendcPlatform);
    cube.SetDim(ascendcPlatform.GetCoreNumAiv());
    cube.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    // nn.Linear keeps W as (out, in): feed it transposed
    cube.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    cube.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cube.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    cube.SetShape(M, N, K);
    cube.SetOrgShape(M, N, K);
    cube.EnableBias(true);
    cube.SetBufferSpace(-1, -1, -1);
    cube.SetFixSplit(128, 128, -1);

    MatmulAddSwishTanhGeluHardtanhCustomTilingData tiling;
    if (cube.GetTiling(tiling.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    if (M % tiling.mmTiling.get_baseM() != 0 || N % tiling.mmTiling.get_baseN() != 0 ||
        tiling.mmTiling.get_singleCoreM() % tiling.mmTiling.get_baseM() != 0 ||
        tiling.mmTiling.get_singleCoreN() % tiling.mmTiling.get_baseN() != 0) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(ascendcPlatform.GetCoreNumAic());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = ascendcPlatform.GetLibApiWorkSpaceSize();
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
class MatmulAddSwishTanhGeluHardtanhCustom : public OpDef {
public:
    explicit MatmulAddSwishTanhGeluHardtanhCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("add_value").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MatmulAddSwishTanhGeluHardtanhCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// sqrt(2 / pi), used by the tanh form of GELU
constexpr float GELU_C0 = 0.7978845608028654f;
constexpr float GELU_C1 = 0.044715f;

// y = hardtanh(gelu(tanh(swish(x W^T + b + add_value))), -1, 1)
// Cube: x W^T + b, one 128x128 base block at a time.
// Vector epilogue on each block right after it leaves L0C:
//   + add_value (broadcast over rows)
//   swish(v)  = v / (1 + exp(-v))
//   tanh(v)   = 1 - 2 / (exp(2v) + 1)
//   gelu(v)   = v / (1 + exp(-2 * c0 * (v + c1 * v^3)))   (tanh approximation;
//               input is already in (-1, 1) where it tracks the erf form closely)
//   hardtanh  = clamp(v, -1, 1)
template <typename T>
class MatmulAddSwishTanhGeluHardtanhKernel {
public:
    using A_T = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using B_T = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using C_T = MatmulType<TPosition::VECIN, CubeFormat::ND, T>;
    using BIAS_T = MatmulType<TPosition::GM, CubeFormat::ND, T>;

    __aicore__ inline MatmulAddSwishTanhGeluHardtanhKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR addValue, GM_ADDR y,
                                const TCubeTiling& t, TPipe* pipePtr)
    {
        cfg = t;
        pipe = pipePtr;
        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)cfg.M * cfg.Ka);
        wGm.SetGlobalBuffer((__gm__ T*)w, (uint64_t)cfg.N * cfg.Kb);
        biasGm.SetGlobalBuffer((__gm__ T*)bias, cfg.N);
        addGm.SetGlobalBuffer((__gm__ T*)addValue, cfg.N);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)cfg.M * cfg.N);

        uint32_t mTiles = (cfg.M + cfg.singleCoreM - 1) / cfg.singleCoreM;
        uint32_t idx = GetBlockIdx();
        mPos = (idx % mTiles) * cfg.singleCoreM;
        nPos = (idx / mTiles) * cfg.singleCoreN;

        blockElems = cfg.baseM * cfg.baseN;
        pipe->InitBuffer(resQue, 1, blockElems * sizeof(T));
        pipe->InitBuffer(addQue, 1, cfg.baseN * sizeof(T));
        pipe->InitBuffer(tmpBuf, blockElems * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (GetBlockIdx() >= (uint32_t)cfg.usedCoreNum) {
            return;
        }
        int32_t sm = cfg.M - (int32_t)mPos;
        int32_t sn = cfg.N - (int32_t)nPos;
        sm = sm < cfg.singleCoreM ? sm : cfg.singleCoreM;
        sn = sn < cfg.singleCoreN ? sn : cfg.singleCoreN;

        mm.SetTensorA(xGm[(uint64_t)mPos * cfg.Ka]);
        mm.SetTensorB(wGm[(uint64_t)nPos * cfg.Kb], true);
        mm.SetBias(biasGm[nPos]);
        mm.SetTail(sm, sn);

        uint32_t blocksM = (uint32_t)sm / cfg.baseM;
        uint32_t iter = 0;
        while (mm.template Iterate<true>()) {
            uint32_t bm = iter % blocksM;
            uint32_t bn = iter / blocksM;
            uint32_t rowOff = mPos + bm * cfg.baseM;
            uint32_t colOff = nPos + bn * cfg.baseN;

            LoadAddValue(colOff);
            LocalTensor<T> res = resQue.AllocTensor<T>();
            mm.template GetTensorC<true>(res, false, true);
            Epilogue(res);
            resQue.EnQue(res);
            WriteBlock(rowOff, colOff);
            ++iter;
        }
        mm.End();
    }

private:
    __aicore__ inline void LoadAddValue(uint32_t colOff)
    {
        LocalTensor<T> av = addQue.AllocTensor<T>();
        DataCopy(av, addGm[colOff], cfg.baseN);
        addQue.EnQue(av);
    }

    __aicore__ inline void Epilogue(LocalTensor<T>& v)
    {
        LocalTensor<T> av = addQue.DeQue<T>();
        LocalTensor<T> tmp = tmpBuf.Get<T>();
        const uint32_t n = blockElems;

        // + add_value, broadcast along rows
        for (int32_t r = 0; r < cfg.baseM; ++r) {
            Add(v[r * cfg.baseN], v[r * cfg.baseN], av, cfg.baseN);
        }
        addQue.FreeTensor(av);

        // swish: v / (1 + exp(-v))
        Muls(tmp, v, (T)-1.0f, n);
        Exp(tmp, tmp, n);
        Adds(tmp, tmp, (T)1.0f, n);
        Div(v, v, tmp, n);

        // tanh: 1 - 2 / (exp(2v) + 1); overflow of exp gives exactly 1
        Muls(tmp, v, (T)2.0f, n);
        Exp(tmp, tmp, n);
        Adds(tmp, tmp, (T)1.0f, n);
        Reciprocal(tmp, tmp, n);
        Muls(tmp, tmp, (T)-2.0f, n);
        Adds(v, tmp, (T)1.0f, n);

        // gelu: v * sigmoid(2 * c0 * (v + c1 v^3))
        Mul(tmp, v, v, n);
        Muls(tmp, tmp, (T)GELU_C1, n);
        Adds(tmp, tmp, (T)1.0f, n);
        Mul(tmp, tmp, v, n);
        Muls(tmp, tmp, (T)(-2.0f * GELU_C0), n);
        Exp(tmp, tmp, n);
        Adds(tmp, tmp, (T)1.0f, n);
        Div(v, v, tmp, n);

        // hardtanh(-1, 1)
        Maxs(v, v, (T)-1.0f, n);
        Mins(v, v, (T)1.0f, n);
    }

    __aicore__ inline void WriteBlock(uint32_t rowOff, uint32_t colOff)
    {
        LocalTensor<T> res = resQue.DeQue<T>();
        DataCopyParams p;
        p.blockCount = (uint16_t)cfg.baseM;
        p.blockLen = (uint16_t)(cfg.baseN * sizeof(T) / 32);
        p.srcStride = 0;
        p.dstStride = (uint16_t)((cfg.N - cfg.baseN) * sizeof(T) / 32);
        DataCopy(yGm[(uint64_t)rowOff * cfg.N + colOff], res, p);
        resQue.FreeTensor(res);
    }

public:
    Matmul<A_T, B_T, C_T, BIAS_T> mm;

private:
    TCubeTiling cfg;
    TPipe* pipe = nullptr;
    TQue<QuePosition::VECOUT, 1> resQue;
    TQue<QuePosition::VECIN, 1> addQue;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<T> xGm, wGm, biasGm, addGm, yGm;
    uint32_t mPos = 0;
    uint32_t nPos = 0;
    uint32_t blockElems = 0;
};

extern "C" __global__ __aicore__ void matmul_add_swish_tanh_gelu_hardtanh_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR add_value, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    MatmulAddSwishTanhGeluHardtanhKernel<float> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.mmTiling);
    op.Init(x, weight, bias, add_value, y, tilingData.mmTiling, &pipe);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_add_swish_tanh_gelu_hardtanh_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                               const at::Tensor& bias, const at::Tensor& add_value)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expected 2-D x and weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor ac = add_value.contiguous();
    at::Tensor result = at::empty({xc.size(0), wc.size(0)}, xc.options());
    EXEC_NPU_CMD(aclnnMatmulAddSwishTanhGeluHardtanhCustom, xc, wc, bc, ac, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_add_swish_tanh_gelu_hardtanh_custom", &matmul_add_swish_tanh_gelu_hardtanh_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_add_swish_tanh_gelu_hardtanh_custom", &matmul_add_swish_tanh_gelu_hardtanh_custom_impl_npu,
          "linear + add + swish + tanh + gelu + hardtanh");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, add_value_shape):
        super(ModelNew, self).__init__()
        self.matmul = torch.nn.Linear(in_features, out_features)
        self.add_value = torch.nn.Parameter(torch.randn(add_value_shape))

    def forward(self, x):
        return custom_ops_lib.matmul_add_swish_tanh_gelu_hardtanh_custom(
            x, self.matmul.weight, self.matmul.bias, self.add_value)
'''
