project_json_src='''
[
    {
        "op": "BiasedGemmGainCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "gain", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BiasedGemmGainTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
  TILING_DATA_FIELD_DEF(float, gain);
  TILING_DATA_FIELD_DEF(uint32_t, epiCols);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BiasedGemmGainCustom, BiasedGemmGainTilingData)
}
"""

host_operator_src="""
#include "biased_gemm_gain_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
constexpr uint32_t EPI_COLS = 4096;   // elements per epilogue chunk

DataType ToCubeType(ge::DataType t)
{
    return t == ge::DT_FLOAT16 ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;
}

// y[M, N] = x[M, K] * weight[N, K]^T + bias[N]
bool BuildCubeTiling(const platform_ascendc::PlatformAscendC& plat, ge::DataType dt,
                     int32_t m, int32_t n, int32_t k, uint32_t cores, TCubeTiling& out)
{
    MultiCoreMatmulTiling mt(plat);
    DataType ct = ToCubeType(dt);
    mt.SetDim(cores);
    mt.SetAType(TPosition::GM, CubeFormat::ND, ct, false);
    mt.SetBType(TPosition::GM, CubeFormat::ND, ct, true);
    mt.SetCType(TPosition::GM, CubeFormat::ND, ct);
    mt.SetBiasType(TPosition::GM, CubeFormat::ND, ct);
    mt.SetShape(m, n, k);
    mt.SetOrgShape(m, n, k);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(out) != -1;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BiasedGemmGainTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();
    int32_t m = static_cast<int32_t>(xs.GetDim(0));
    int32_t k = static_cast<int32_t>(xs.GetDim(1));
    int32_t n = static_cast<int32_t>(ws.GetDim(0));
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = plat.GetCoreNumAiv();
    uint32_t aicNum = plat.GetCoreNumAic();
    if (!BuildCubeTiling(plat, dt, m, n, k, aivNum, td.cube)) {
        return ge::GRAPH_FAILED;
    }
    const float* gain = context->GetAttrs()->GetAttrPointer<float>(0);
    td.set_gain(*gain);
    td.set_epiCols(EPI_COLS);

    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(aicNum);   // mix kernel: one AIC drives two AIV
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
class BiasedGemmGainCustom : public OpDef {
public:
    explicit BiasedGemmGainCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("gain").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BiasedGemmGainCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline uint32_t CeilDivU(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

// Block of C owned by one matmul driver core.
struct CoreBlock {
    uint64_t offA, offB, offC, offBias;
    uint32_t rows, cols;
    bool valid;
};

__aicore__ inline CoreBlock LocateBlock(const TCubeTiling& t, uint32_t idx)
{
    CoreBlock blk;
    uint32_t mBlocks = CeilDivU(t.M, t.singleCoreM);
    uint32_t nBlocks = CeilDivU(t.N, t.singleCoreN);
    blk.valid = idx < mBlocks * nBlocks && idx < static_cast<uint32_t>(t.usedCoreNum);
    uint32_t mi = idx % mBlocks;
    uint32_t ni = idx / mBlocks;
    blk.offA = static_cast<uint64_t>(mi) * t.singleCoreM * t.Ka;
    blk.offB = static_cast<uint64_t>(ni) * t.singleCoreN * t.Kb;   // weight is [N, K]
    blk.offC = static_cast<uint64_t>(mi) * t.singleCoreM * t.N + static_cast<uint64_t>(ni) * t.singleCoreN;
    blk.offBias = static_cast<uint64_t>(ni) * t.singleCoreN;
    int32_t rm = t.M - static_cast<int32_t>(mi * t.singleCoreM);
    int32_t rn = t.N - static_cast<int32_t>(ni * t.singleCoreN);
    blk.rows = rm < t.singleCoreM ? rm : t.singleCoreM;
    blk.cols = rn < t.singleCoreN ? rn : t.singleCoreN;
    return blk;
}

template <typename T>
class BiasedGemmGain {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, T>;
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline BiasedGemmGain() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const BiasedGemmGainTilingData& td, TPipe* p)
    {
        pipe = p;
        cube = td.cube;
        gain = td.gain;
        epiCols = td.epiCols;
        blk = LocateBlock(cube, GetBlockIdx());
        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        bGm.SetGlobalBuffer((__gm__ T*)b);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        if (epiCols > blk.cols) {
            epiCols = (blk.cols + 15) / 16 * 16;
        }
        pipe->InitBuffer(epiQue, BUFFER_NUM, epiCols * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (!blk.valid) {
            return;
        }
        mm.SetTensorA(xGm[blk.offA]);
        mm.SetTensorB(wGm[blk.offB], true);
        mm.SetBias(bGm[blk.offBias]);
        mm.SetTail(blk.rows, blk.cols);
        mm.IterateAll(yGm[blk.offC]);
        mm.End();
        ScaleBlock();
    }

private:
    // y_block *= gain, in place, row by row in epiCols chunks
    __aicore__ inline void ScaleBlock()
    {
        uint32_t chunks = CeilDivU(blk.cols, epiCols);
        for (uint32_t r = 0; r < blk.rows; ++r) {
            uint64_t rowOff = blk.offC + static_cast<uint64_t>(r) * cube.N;
            for (uint32_t c = 0; c < chunks; ++c) {
                uint32_t len = (c + 1 == chunks) ? blk.cols - c * epiCols : epiCols;
                uint64_t off = rowOff + static_cast<uint64_t>(c) * epiCols;
                LocalTensor<T> t = epiQue.AllocTensor<T>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
                DataCopyPad(t, yGm[off], cp, pad);
                epiQue.EnQue(t);
                t = epiQue.DeQue<T>();
                Muls(t, t, static_cast<T>(gain), len);
                event_t vm = static_cast<event_t>(pipe->FetchEventID(HardEvent::V_MTE3));
                SetFlag<HardEvent::V_MTE3>(vm);
                WaitFlag<HardEvent::V_MTE3>(vm);
                DataCopyPad(yGm[off], t, cp);
                epiQue.FreeTensor(t);
            }
        }
    }

    TPipe* pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> epiQue;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    TCubeTiling cube;
    CoreBlock blk;
    float gain;
    uint32_t epiCols;
};

template <typename T>
__aicore__ inline void RunGemmGain(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                   const BiasedGemmGainTilingData& td)
{
    TPipe pipe;
    BiasedGemmGain<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.cube);
    op.Init(x, w, b, y, td, &pipe);
    op.Process();
}

extern "C" __global__ __aicore__ void biased_gemm_gain_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunGemmGain<float>(x, weight, bias, y, td);
    } else if (TILING_KEY_IS(1)) {
        RunGemmGain<half>(x, weight, bias, y, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = linear(x) * s + linear(x) = (x W^T + b) * (1 + s)
at::Tensor biased_gemm_gain_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                     double scalingFactor)
{
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor y = at::empty({xc.size(0), wc.size(0)}, xc.options());
    double gain = 1.0 + scalingFactor;
    EXEC_NPU_CMD(aclnnBiasedGemmGainCustom, xc, wc, bc, gain, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("biased_gemm_gain", &biased_gemm_gain_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("biased_gemm_gain", &biased_gemm_gain_impl_npu, "linear followed by scale-and-residual");
}
"""
