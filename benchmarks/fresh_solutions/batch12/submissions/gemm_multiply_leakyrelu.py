project_json_src='''
[
    {
        "op": "LinearScaledLeakyCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "attr": [
            {"name": "multiplier", "param_type": "optional", "type": "float", "default_value": "1.0"},
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearScaledLeakyTilingData)
  TILING_DATA_FIELD_DEF(float, multiplier);
  TILING_DATA_FIELD_DEF(float, negativeSlope);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearScaledLeakyCustom, LinearScaledLeakyTilingData)
}
"""

host_operator_src="""
#include "linear_scaled_leaky_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
// Fixed base block for the cube: 128x256 fp32 accumulator = 128KB in L0C,
// and the same block is staged in UB for the epilogue.
constexpr int32_t BASE_M = 128;
constexpr int32_t BASE_N = 256;

bool BuildCubeTiling(const platform_ascendc::PlatformAscendC& plat, DataType abType,
                     int32_t m, int32_t n, int32_t k, uint32_t cores, TCubeTiling& out)
{
    MultiCoreMatmulTiling mt(plat);
    mt.SetDim(cores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, abType, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, abType, true);   // weight is [N, K]
    mt.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(true);
    mt.SetFixSplit(BASE_M, BASE_N, -1);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(out) != -1;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    int32_t m = static_cast<int32_t>(xs.GetDim(0));
    int32_t k = static_cast<int32_t>(xs.GetDim(1));
    int32_t n = static_cast<int32_t>(ws.GetDim(0));

    auto dt = context->GetInputDesc(0)->GetDataType();
    DataType abType = (dt == ge::DT_FLOAT16) ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    float mul = *attrs->GetAttrPointer<float>(0);
    float slope = *attrs->GetAttrPointer<float>(1);

    uint32_t cores = plat.GetCoreNumAic();
    LinearScaledLeakyTilingData tiling;
    if (!BuildCubeTiling(plat, abType, m, n, k, cores, tiling.mm)) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_multiplier(mul);
    tiling.set_negativeSlope(slope);

    uint32_t mBlocks = (m + tiling.mm.get_singleCoreM() - 1) / tiling.mm.get_singleCoreM();
    uint32_t nBlocks = (n + tiling.mm.get_singleCoreN() - 1) / tiling.mm.get_singleCoreN();
    context->SetBlockDim(mBlocks * nBlocks);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
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
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class LinearScaledLeakyCustom : public OpDef {
public:
    explicit LinearScaledLeakyCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("multiplier").AttrType(OPTIONAL).Float(1.0f);
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(LinearScaledLeakyCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Epilogue on one base block held in UB: y = leaky(acc * multiplier).
// leaky(v) = max(v, slope*v) holds for 0 <= slope <= 1; LeakyRelu covers the general case.
struct ScaledLeaky {
    __aicore__ static inline void Run(const LocalTensor<float>& blk, float mul, float slope, uint32_t n)
    {
        Muls(blk, blk, mul, n);
        LeakyRelu(blk, blk, slope, n);
    }
};

template <typename AB>
class LinearScaledLeakyKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, AB>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, AB, true>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<AType, BType, CType, BiasType> mm;
    TPipe pipe;

    __aicore__ inline LinearScaledLeakyKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& t, float mulv, float slopev)
    {
        tiling = t;
        mulVal = mulv;
        slopeVal = slopev;
        xGm.SetGlobalBuffer((__gm__ AB*)x, (uint64_t)t.M * t.Ka);
        wGm.SetGlobalBuffer((__gm__ AB*)w, (uint64_t)t.N * t.Kb);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, t.N);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)t.M * t.N);

        // block index -> (mBlk, nBlk) region of singleCoreM x singleCoreN
        uint32_t mBlocks = CeilDiv(t.M, t.singleCoreM);
        uint32_t blk = GetBlockIdx();
        mIdx = blk % mBlocks;
        nIdx = blk / mBlocks;
        uint32_t mOff = mIdx * t.singleCoreM;
        uint32_t nOff = nIdx * t.singleCoreN;
        curM = (t.M - mOff) < (uint32_t)t.singleCoreM ? (t.M - mOff) : t.singleCoreM;
        curN = (t.N - nOff) < (uint32_t)t.singleCoreN ? (t.N - nOff) : t.singleCoreN;
        xOff = (uint64_t)mOff * t.Ka;
        wOff = (uint64_t)nOff * t.Kb;   // weight rows are output columns
        yOff = (uint64_t)mOff * t.N + nOff;
        bOff = nOff;

        pipe.InitBuffer(outQ, BUFFER_NUM, t.baseM * t.baseN * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (GetBlockIdx() >= CeilDiv(tiling.M, tiling.singleCoreM) * CeilDiv(tiling.N, tiling.singleCoreN)) {
            return;
        }
        mm.SetTensorA(xGm[xOff]);
        mm.SetTensorB(wGm[wOff], true);
        mm.SetBias(biasGm[bOff]);
        mm.SetTail(curM, curN);

        uint32_t mIter = CeilDiv(curM, tiling.baseM);
        uint32_t nIter = CeilDiv(curN, tiling.baseN);
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            // default iterate order walks M fastest within the core's region
            uint32_t mi, ni;
            if (tiling.iterateOrder == 0) {
                mi = step % mIter;
                ni = step / mIter;
            } else {
                ni = step % nIter;
                mi = step / nIter;
            }
            LocalTensor<float> blk = outQ.AllocTensor<float>();
            mm.template GetTensorC<true>(blk, false, true);
            ScaledLeaky::Run(blk, mulVal, slopeVal, tiling.baseM * tiling.baseN);
            outQ.EnQue(blk);
            CopyOut(mi, ni);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void CopyOut(uint32_t mi, uint32_t ni)
    {
        LocalTensor<float> blk = outQ.DeQue<float>();
        uint32_t rows = curM - mi * tiling.baseM;
        rows = rows < (uint32_t)tiling.baseM ? rows : tiling.baseM;
        uint32_t cols = curN - ni * tiling.baseN;
        cols = cols < (uint32_t)tiling.baseN ? cols : tiling.baseN;
        // UB block is baseM x baseN row-major; GM row pitch is N
        DataCopyExtParams cp;
        cp.blockCount = rows;
        cp.blockLen = cols * sizeof(float);
        cp.srcStride = (tiling.baseN - cols) * sizeof(float) / 32;
        cp.dstStride = (tiling.N - cols) * sizeof(float);
        DataCopyPad(yGm[yOff + (uint64_t)mi * tiling.baseM * tiling.N + ni * tiling.baseN], blk, cp);
        outQ.FreeTensor(blk);
    }

    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<AB> xGm, wGm;
    GlobalTensor<float> biasGm, yGm;
    TCubeTiling tiling;
    float mulVal = 1.0f;
    float slopeVal = 0.01f;
    uint32_t mIdx = 0, nIdx = 0, curM = 0, curN = 0;
    uint64_t xOff = 0, wOff = 0, yOff = 0, bOff = 0;
};

template <typename AB>
__aicore__ inline void RunLinearScaledLeaky(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR tilingGm)
{
    GET_TILING_DATA(td, tilingGm);
    LinearScaledLeakyKernel<AB> op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(x, w, b, y, td.mm, td.multiplier, td.negativeSlope);
    op.Process();
}

extern "C" __global__ __aicore__ void linear_scaled_leaky_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if (workspace == nullptr) {
        return;
    }
    SetSysWorkspace(workspace);
    if (TILING_KEY_IS(1)) {
        RunLinearScaledLeaky<float>(x, weight, bias, y, tiling);
    } else if (TILING_KEY_IS(2)) {
        RunLinearScaledLeaky<half>(x, weight, bias, y, tiling);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor linear_scaled_leaky_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                        double multiplier, double negative_slope)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "x and weight must be 2-D");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.to(at::kFloat).contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options().dtype(at::kFloat));
    float mulv = static_cast<float>(multiplier);
    float slope = static_cast<float>(negative_slope);
    EXEC_NPU_CMD(aclnnLinearScaledLeakyCustom, xc, wc, bc, mulv, slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("linear_scaled_leaky_custom", &linear_scaled_leaky_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("linear_scaled_leaky_custom", &linear_scaled_leaky_impl_npu,
          "leaky_relu((x @ W^T + b) * multiplier)");
}
"""
