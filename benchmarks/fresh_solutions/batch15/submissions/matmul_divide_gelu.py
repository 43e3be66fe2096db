project_json_src='''
[
    {
        "op": "ScaledLinearGeluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledLinearGeluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(float, invDivisor);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledLinearGeluCustom, ScaledLinearGeluTilingData)
}
"""

host_operator_src="""
#include "scaled_linear_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
constexpr int32_t BASE_M = 128;   // epilogue tile is BASE_M x BASE_N fp32 = 32KB of UB
constexpr int32_t BASE_N = 64;

bool BuildCubeTiling(const platform_ascendc::PlatformAscendC& plat, int32_t m, int32_t n, int32_t k,
                     matmul_tiling::DataType abType, uint32_t cores, ScaledLinearGeluTilingData& td)
{
    MultiCoreMatmulTiling mt(plat);
    mt.SetDim(cores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, abType, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, abType, true);      // weight is [N, K]
    mt.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(true);
    mt.SetFixSplit(BASE_M, BASE_N, -1);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(td.mm) != -1;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaledLinearGeluTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    int32_t m = static_cast<int32_t>(xs.GetDim(0));
    int32_t k = static_cast<int32_t>(xs.GetDim(1));
    int32_t n = static_cast<int32_t>(ws.GetDim(0));
    if (ws.GetDim(1) != k) {
        return ge::GRAPH_FAILED;
    }

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    auto abType = isHalf ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;
    uint32_t aicNum = plat.GetCoreNumAic();
    if (!BuildCubeTiling(plat, m, n, k, abType, aicNum, td)) {
        return ge::GRAPH_FAILED;
    }

    float divisor = *context->GetAttrs()->GetAttrPointer<float>(0);
    td.set_invDivisor(1.0f / divisor);
    td.set_usedCores(static_cast<uint32_t>(td.mm.get_usedCoreNum()));

    context->SetBlockDim(aicNum);
    context->SetTilingKey(isHalf ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsSizes = context->GetWorkspaceSizes(1);
    wsSizes[0] = plat.GetLibApiWorkSpaceSize();
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
class ScaledLinearGeluCustom : public OpDef {
public:
    explicit ScaledLinearGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ScaledLinearGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// gelu(v) ~= v * sigmoid(2*sqrt(2/pi) * (v + 0.044715 v^3)), evaluated in place on v, tmp is scratch
__aicore__ inline void GeluInPlace(const LocalTensor<float>& v, const LocalTensor<float>& tmp, uint32_t n)
{
    constexpr float kC = 1.5957691216057308f;
    Mul(tmp, v, v, n);
    Muls(tmp, tmp, 0.044715f * kC, n);
    Adds(tmp, tmp, kC, n);
    Mul(tmp, tmp, v, n);
    Muls(tmp, tmp, -1.0f, n);
    Exp(tmp, tmp, n);
    Adds(tmp, tmp, 1.0f, n);
    Div(v, v, tmp, n);
}

template <typename T>
class ScaledLinearGelu {
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

public:
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline ScaledLinearGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& tiling, float invDiv)
    {
        cube = tiling;
        scale = invDiv;
        M = cube.M;
        N = cube.N;
        K = cube.Ka;

        uint32_t mBlocks = CeilDiv(M, cube.singleCoreM);
        uint32_t blk = GetBlockIdx();
        mIdx = blk % mBlocks;
        nIdx = blk / mBlocks;
        validM = (M - mIdx * cube.singleCoreM) < static_cast<uint32_t>(cube.singleCoreM)
                     ? (M - mIdx * cube.singleCoreM) : cube.singleCoreM;
        validN = (N - nIdx * cube.singleCoreN) < static_cast<uint32_t>(cube.singleCoreN)
                     ? (N - nIdx * cube.singleCoreN) : cube.singleCoreN;

        xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(mIdx) * cube.singleCoreM * K);
        wGm.SetGlobalBuffer((__gm__ T*)w + static_cast<uint64_t>(nIdx) * cube.singleCoreN * K);
        biasGm.SetGlobalBuffer((__gm__ float*)bias + nIdx * cube.singleCoreN);
        yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(mIdx) * cube.singleCoreM * N
                            + nIdx * cube.singleCoreN);

        uint32_t tileElems = cube.baseM * cube.baseN;
        pipe.InitBuffer(accQ, 1, tileElems * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(scratch, tileElems * sizeof(float));
    }

    __aicore__ inline void Process(TPipe* p)
    {
        (void)p;
        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(validM, validN, K);

        uint32_t roundsM = CeilDiv(validM, cube.baseM);
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            // default iterate order walks M first inside a column of base tiles
            uint32_t tm = step % roundsM;
            uint32_t tn = step / roundsM;
            uint32_t rows = (validM - tm * cube.baseM) < static_cast<uint32_t>(cube.baseM)
                                ? (validM - tm * cube.baseM) : cube.baseM;
            uint32_t cols = (validN - tn * cube.baseN) < static_cast<uint32_t>(cube.baseN)
                                ? (validN - tn * cube.baseN) : cube.baseN;

            LocalTensor<float> acc = accQ.AllocTensor<float>();
            mm.template GetTensorC<true>(acc, false, true);
            accQ.EnQue(acc);
            Epilogue();
            Store(static_cast<uint64_t>(tm) * cube.baseM * N + tn * cube.baseN, rows, cols);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue()
    {
        LocalTensor<float> acc = accQ.DeQue<float>();
        LocalTensor<float> tmp = scratch.Get<float>();
        uint32_t n = cube.baseM * cube.baseN;
        Muls(acc, acc, scale, n);
        GeluInPlace(acc, tmp, n);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(out, acc, n);
        } else {
            Cast(out, acc, RoundMode::CAST_ROUND, n);
        }
        outQ.EnQue(out);
        accQ.FreeTensor(acc);
    }

    __aicore__ inline void Store(uint64_t off, uint32_t rows, uint32_t cols)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        // rows are baseN apart in UB and N apart in GM
        uint32_t ubGapBlocks = (cube.baseN - cols) * sizeof(T) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                             ubGapBlocks, static_cast<uint32_t>((N - cols) * sizeof(T)), 0};
        DataCopyPad(yGm[off], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> accQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> scratch;
    GlobalTensor<T> xGm, wGm, yGm;
    GlobalTensor<float> biasGm;
    TCubeTiling cube;
    float scale = 1.0f;
    uint32_t M = 0, N = 0, K = 0, mIdx = 0, nIdx = 0, validM = 0, validN = 0;

public:
    __aicore__ inline TPipe* GetPipe() { return &pipe; }
};

template <typename T>
__aicore__ inline void RunScaledLinearGelu(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                           const ScaledLinearGeluTilingData& td)
{
    if (GetBlockIdx() >= td.usedCores) {
        return;
    }
    ScaledLinearGelu<T> op;
    REGIST_MATMUL_OBJ(op.GetPipe(), GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(x, w, bias, y, td.mm, td.invDivisor);
    op.Process(op.GetPipe());
}

extern "C" __global__ __aicore__ void scaled_linear_gelu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RunScaledLinearGelu<float>(x, weight, bias, y, td);
    } else if (TILING_KEY_IS(2)) {
        RunScaledLinearGelu<half>(x, weight, bias, y, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// gelu((x @ W^T + b) / divisor), one fused cube + vector kernel
at::Tensor scaled_linear_gelu_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                       const at::Tensor& bias, double divisor)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expects 2-D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.to(xc.scalar_type()).contiguous();
    at::Tensor bc = bias.to(at::kFloat).contiguous();
    at::Tensor result = at::empty({xc.size(0), wc.size(0)}, xc.options());
    EXEC_NPU_CMD(aclnnScaledLinearGeluCustom, xc, wc, bc, divisor, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scaled_linear_gelu_custom", &scaled_linear_gelu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scaled_linear_gelu_custom", &scaled_linear_gelu_impl_npu, "gelu(linear(x) / divisor)");
}
"""
