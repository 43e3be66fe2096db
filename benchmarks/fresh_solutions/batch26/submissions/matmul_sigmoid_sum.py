project_json_src='''
[
    {
        "op": "AffineLogisticRowTotalCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AffineLogisticRowTotalTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // M
  TILING_DATA_FIELD_DEF(uint32_t, cols);        // N (hidden)
  TILING_DATA_FIELD_DEF(uint32_t, depth);       // K (input features)
  TILING_DATA_FIELD_DEF(uint32_t, vecChunk);    // fp32 columns per sigmoid/sum step
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AffineLogisticRowTotalCustom, AffineLogisticRowTotalTilingData)
}
"""

host_operator_src="""
#include "affine_logistic_row_total_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
namespace {
constexpr uint32_t VEC_CHUNK = 4096;

DataType ToMatmulType(ge::DataType dt)
{
    return dt == ge::DT_FLOAT16 ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    int32_t m = static_cast<int32_t>(xs.GetDim(0));
    int32_t k = static_cast<int32_t>(xs.GetDim(1));
    int32_t n = static_cast<int32_t>(ws.GetDim(0));
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();

    uint32_t aicNum = platform.GetCoreNumAic();
    MultiCoreMatmulTiling mmTiling(platform);
    mmTiling.SetDim(aicNum);
    mmTiling.SetAType(TPosition::GM, CubeFormat::ND, ToMatmulType(dt), false);
    mmTiling.SetBType(TPosition::GM, CubeFormat::ND, ToMatmulType(dt), true);   // weight is (N, K)
    mmTiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mmTiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    mmTiling.SetShape(m, n, k);
    mmTiling.SetOrgShape(m, n, k);
    mmTiling.SetBias(true);
    mmTiling.SetBufferSpace(-1, -1, -1);

    AffineLogisticRowTotalTilingData td;
    if (mmTiling.GetTiling(td.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    td.set_rows(m);
    td.set_cols(n);
    td.set_depth(k);
    td.set_vecChunk(VEC_CHUNK);

    context->SetBlockDim(aicNum);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // system workspace for the matmul library + fp32 staging of the linear output
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(m) * n * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(2);
    y->SetDim(0, context->GetInputShape(0)->GetDim(0));
    y->SetDim(1, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AffineLogisticRowTotalCustom : public OpDef {
public:
    explicit AffineLogisticRowTotalCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AffineLogisticRowTotalCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// sigmoid(v) in place, fp32
__aicore__ inline void Logistic(const LocalTensor<float>& v, uint32_t n)
{
    Muls(v, v, -1.0f, n);
    PipeBarrier<PIPE_V>();
    Exp(v, v, n);
    PipeBarrier<PIPE_V>();
    Adds(v, v, 1.0f, n);
    PipeBarrier<PIPE_V>();
    Reciprocal(v, v, n);
    PipeBarrier<PIPE_V>();
}

// Per-core block of the (M, N) product, as laid out by the multi-core cube tiling.
struct CoreBlock {
    uint32_t mOff, nOff, mLen, nLen;
    bool valid;
};

__aicore__ inline CoreBlock LocateBlock(const TCubeTiling& t, uint32_t idx)
{
    CoreBlock b{};
    uint32_t mBlocks = CeilDiv(t.M, t.singleCoreM);
    uint32_t nBlocks = CeilDiv(t.N, t.singleCoreN);
    b.valid = idx < mBlocks * nBlocks;
    if (!b.valid) {
        return b;
    }
    uint32_t mi = idx % mBlocks;
    uint32_t ni = idx / mBlocks;
    b.mOff = mi * t.singleCoreM;
    b.nOff = ni * t.singleCoreN;
    b.mLen = (t.M - b.mOff) < static_cast<uint32_t>(t.singleCoreM) ? (t.M - b.mOff) : t.singleCoreM;
    b.nLen = (t.N - b.nOff) < static_cast<uint32_t>(t.singleCoreN) ? (t.N - b.nOff) : t.singleCoreN;
    return b;
}

template <typename T>
class AffineLogisticRowTotalKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, T, false>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<AType, BType, CType, BiasType> mm;

    __aicore__ inline AffineLogisticRowTotalKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR userWs,
                                const AffineLogisticRowTotalTilingData& t)
    {
        td = t;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        biasGm.SetGlobalBuffer((__gm__ float*)bias);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        linGm.SetGlobalBuffer((__gm__ float*)userWs);
        blk = LocateBlock(td.cube, GetBlockIdx());
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cube);

        pipe.InitBuffer(rowQ, BUFFER_NUM, td.vecChunk * sizeof(float));
        pipe.InitBuffer(sumQ, 1, CeilDiv(td.cube.singleCoreM, 8) * 8 * sizeof(float));
        pipe.InitBuffer(reduceTmp, td.vecChunk * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (!blk.valid) {
            return;
        }
        RunLinear();
        RowLogisticSums();
    }

private:
    // lin[mOff:, nOff:] = x[mOff:] * w[nOff:]^T + bias[nOff:]
    __aicore__ inline void RunLinear()
    {
        mm.SetTail(blk.mLen, blk.nLen, td.depth);
        mm.SetTensorA(xGm[static_cast<uint64_t>(blk.mOff) * td.depth]);
        mm.SetTensorB(wGm[static_cast<uint64_t>(blk.nOff) * td.depth], true);
        mm.SetBias(biasGm[blk.nOff]);
        mm.IterateAll(linGm[static_cast<uint64_t>(blk.mOff) * td.cols + blk.nOff]);
        mm.End();
        // linear result must be visible in GM before the vector pass re-reads it
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void RowLogisticSums()
    {
        LocalTensor<float> sums = sumQ.AllocTensor<float>();
        LocalTensor<float> tmp = reduceTmp.Get<float>();
        for (uint32_t r = 0; r < blk.mLen; ++r) {
            uint64_t rowBase = static_cast<uint64_t>(blk.mOff + r) * td.cols + blk.nOff;
            float total = 0.0f;
            for (uint32_t c = 0; c < blk.nLen; c += td.vecChunk) {
                uint32_t len = (blk.nLen - c) < td.vecChunk ? (blk.nLen - c) : td.vecChunk;
                LocalTensor<float> seg = rowQ.AllocTensor<float>();
                DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0};
                DataCopyPad(seg, linGm[rowBase + c], cp, pad);
                rowQ.EnQue(seg);
                seg = rowQ.DeQue<float>();
                Logistic(seg, len);
                ReduceSum<float>(seg, seg, tmp, len);
                event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
                SetFlag<HardEvent::V_S>(ev);
                WaitFlag<HardEvent::V_S>(ev);
                total += seg.GetValue(0);
                rowQ.FreeTensor(seg);
            }
            sums.SetValue(r, total);
        }
        sumQ.EnQue(sums);
        sums = sumQ.DeQue<float>();
        // several cores own disjoint column ranges of the same rows: accumulate atomically
        SetAtomicAdd<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(blk.mLen * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[blk.mOff], sums, cp);
        SetAtomicNone();
        sumQ.FreeTensor(sums);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQ;   // one chunk of a linear-output row
    TQue<QuePosition::VECOUT, 1> sumQ;           // per-row partial sums for this core
    TBuf<TPosition::VECCALC> reduceTmp;
    GlobalTensor<T> xGm, wGm;
    GlobalTensor<float> biasGm, yGm, linGm;
    AffineLogisticRowTotalTilingData td;
    CoreBlock blk;
};

template <typename T>
__aicore__ inline void RunAffineLogisticRowTotal(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR ws,
                                                 const AffineLogisticRowTotalTilingData& td)
{
    AffineLogisticRowTotalKernel<T> op;
    GM_ADDR userWs = GetUserWorkspace(ws);
    op.Init(x, w, b, y, userWs, td);
    op.Process();
}

extern "C" __global__ __aicore__ void affine_logistic_row_total_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                       GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    SetSysWorkspace(workspace);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        RunAffineLogisticRowTotal<float>(x, weight, bias, y, workspace, td);
    } else if (TILING_KEY_IS(2)) {
        RunAffineLogisticRowTotal<half>(x, weight, bias, y, workspace, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// sum_j sigmoid(x @ W^T + b)[:, j], keepdim -> (M, 1)
at::Tensor affine_logistic_row_total_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && x.size(1) == weight.size(1), "shape mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.to(xc.scalar_type()).contiguous();
    at::Tensor bc = bias.to(at::kFloat).contiguous();
    // cores add their partial row sums into y atomically, so it starts at zero
    at::Tensor y = at::zeros({xc.size(0), 1}, xc.options().dtype(at::kFloat));
    EXEC_NPU_CMD(aclnnAffineLogisticRowTotalCustom, xc, wc, bc, y);
    return y.to(x.scalar_type());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("affine_logistic_row_total_custom", &affine_logistic_row_total_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("affine_logistic_row_total_custom", &affine_logistic_row_total_impl_npu,
          "row sum of sigmoid(linear(x))");
}
"""
