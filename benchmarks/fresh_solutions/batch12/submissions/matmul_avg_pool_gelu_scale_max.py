project_json_src='''
[
    {
        "op": "ProjectedWindowGeluPeakCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "attr": [
            {"name": "pool_size", "param_type": "required", "type": "int"},
            {"name": "scale", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ProjectedWindowGeluPeakTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // M (batch)
  TILING_DATA_FIELD_DEF(uint32_t, cols);        // N (out_features)
  TILING_DATA_FIELD_DEF(uint32_t, depth);       // K (in_features)
  TILING_DATA_FIELD_DEF(uint32_t, poolSize);
  TILING_DATA_FIELD_DEF(uint32_t, pooledCols);  // floor(N / poolSize)
  TILING_DATA_FIELD_DEF(uint32_t, tileM);
  TILING_DATA_FIELD_DEF(uint32_t, tileN);       // multiple of poolSize
  TILING_DATA_FIELD_DEF(uint32_t, tilesM);
  TILING_DATA_FIELD_DEF(uint32_t, tilesN);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ProjectedWindowGeluPeakCustom, ProjectedWindowGeluPeakTilingData)
}
"""

host_operator_src="""
#include "projected_window_gelu_peak_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
namespace {
constexpr uint32_t TILE_M = 128;
constexpr uint32_t TILE_N_TARGET = 256;

// Largest multiple of the pool window not above the target, so pool windows never straddle tiles.
uint32_t PickTileN(uint32_t pool, uint32_t n)
{
    uint32_t t = (TILE_N_TARGET / pool) * pool;
    if (t == 0) {
        t = pool;
    }
    uint32_t nAligned = (n + 15) / 16 * 16;
    return t > nAligned ? (nAligned / pool) * pool : t;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t m = xs.GetDim(0);
    uint32_t k = xs.GetDim(1);
    uint32_t n = ws.GetDim(0);

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t pool = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float scale = *attrs->GetAttrPointer<float>(1);
    // window sums use one WholeReduceSum repeat per window: needs 32B-aligned windows of <= 64 lanes
    if (pool == 0 || pool > 64 || (pool * sizeof(float)) % 32 != 0 || n < pool) {
        return ge::GRAPH_FAILED;
    }

    auto dt = context->GetInputDesc(0)->GetDataType();
    auto abType = dt == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16 : matmul_tiling::DataType::DT_FLOAT;

    ProjectedWindowGeluPeakTilingData td;
    uint32_t tileN = PickTileN(pool, n);
    uint32_t tileM = TILE_M;
    td.set_rows(m);
    td.set_cols(n);
    td.set_depth(k);
    td.set_poolSize(pool);
    td.set_pooledCols(n / pool);
    td.set_tileM(tileM);
    td.set_tileN(tileN);
    td.set_tilesM((m + tileM - 1) / tileM);
    td.set_tilesN(((n / pool) * pool + tileN - 1) / tileN);   // trailing partial window is dropped
    td.set_scale(scale);

    // single-core shape equals one tile: each Iterate produces exactly one epilogue block
    matmul_tiling::MatmulApiTiling mt(plat);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, abType, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, abType, true);
    mt.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetOrgShape(m, n, k);
    mt.SetShape(tileM, tileN, k);
    mt.SetFixSplit(tileM, tileN, -1);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(td.mm) == -1) {
        return ge::GRAPH_FAILED;
    }

    uint32_t tiles = td.get_tilesM() * td.get_tilesN();
    uint32_t cores = plat.GetCoreNumAic();
    context->SetBlockDim(tiles < cores ? tiles : cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(1);
    ys->SetDim(0, context->GetInputShape(0)->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, ge::DT_FLOAT);
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ProjectedWindowGeluPeakCustom : public OpDef {
public:
    explicit ProjectedWindowGeluPeakCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("pool_size").Int();
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ProjectedWindowGeluPeakCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_REPEAT = 255;

// tanh-form GELU via x * sigmoid(2u); v is overwritten, tmp must not alias v
__aicore__ inline void GeluInPlace(const LocalTensor<float>& v, const LocalTensor<float>& tmp, uint32_t n)
{
    Mul(tmp, v, v, n);
    Muls(tmp, tmp, 0.044715f, n);
    Adds(tmp, tmp, 1.0f, n);
    Mul(tmp, tmp, v, n);
    Muls(tmp, tmp, -1.5957691216057308f, n);
    Exp(tmp, tmp, n);
    Adds(tmp, tmp, 1.0f, n);
    Div(v, v, tmp, n);
}

// Window means over a [rows x tileN] block: one WholeReduceSum repeat per pool window.
__aicore__ inline void WindowSums(const LocalTensor<float>& dst, const LocalTensor<float>& blk,
                                  uint32_t windows, uint32_t pool)
{
    uint16_t srcRep = static_cast<uint16_t>(pool * sizeof(float) / 32);
    for (uint32_t done = 0; done < windows; done += MAX_REPEAT) {
        uint32_t rep = (windows - done) < MAX_REPEAT ? (windows - done) : MAX_REPEAT;
        WholeReduceSum<float>(dst[done], blk[done * pool], static_cast<int32_t>(pool),
                              static_cast<int32_t>(rep), 1, 1, srcRep);
    }
}

template <typename AB>
class ProjectedWindowGeluPeakKernel {
public:
    using MmA = matmul::MatmulType<TPosition::GM, CubeFormat::ND, AB>;
    using MmB = matmul::MatmulType<TPosition::GM, CubeFormat::ND, AB, true>;
    using MmC = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using MmBias = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    matmul::Matmul<MmA, MmB, MmC, MmBias> mm;
    TPipe pipe;

    __aicore__ inline ProjectedWindowGeluPeakKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const ProjectedWindowGeluPeakTilingData& td)
    {
        M = td.rows; N = td.cols; K = td.depth;
        pool = td.poolSize; pooledCols = td.pooledCols;
        tileM = td.tileM; tileN = td.tileN;
        tilesM = td.tilesM; tilesN = td.tilesN;
        scale = td.scale;

        xGm.SetGlobalBuffer((__gm__ AB*)x, (uint64_t)M * K);
        wGm.SetGlobalBuffer((__gm__ AB*)w, (uint64_t)N * K);
        bGm.SetGlobalBuffer((__gm__ float*)b, N);
        yGm.SetGlobalBuffer((__gm__ float*)y, M);

        uint32_t groups = tileN / pool;
        groupsAligned = (groups + 7) / 8 * 8;
        pipe.InitBuffer(accQ, BUFFER_NUM, tileM * tileN * sizeof(float));      // cube result block
        pipe.InitBuffer(peakQ, BUFFER_NUM, (tileM + 7) / 8 * 8 * sizeof(float)); // per-row partial max
        pipe.InitBuffer(poolBuf, tileM * groupsAligned * sizeof(float));         // window means
        pipe.InitBuffer(tmpBuf, tileM * groupsAligned * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t total = tilesM * tilesN;
        for (uint32_t t = GetBlockIdx(); t < total; t += GetBlockNum()) {
            uint32_t tm = t / tilesN;
            uint32_t tn = t % tilesN;
            uint32_t m0 = tm * tileM;
            uint32_t n0 = tn * tileN;
            uint32_t rows = (M - m0) < tileM ? (M - m0) : tileM;
            uint32_t validCols = pooledCols * pool - n0;
            validCols = validCols < tileN ? validCols : tileN;

            mm.SetTensorA(xGm[(uint64_t)m0 * K]);
            mm.SetTensorB(wGm[(uint64_t)n0 * K], true);
            mm.SetBias(bGm[n0]);
            mm.SetTail(rows, validCols, K);
            LocalTensor<float> acc = accQ.AllocTensor<float>();
            mm.Iterate();
            mm.GetTensorC(acc);     // [tileM x tileN], row pitch tileN
            accQ.EnQue(acc);

            Epilogue(rows, validCols / pool);
            StorePeaks(m0, rows);
        }
        mm.End();
    }

private:
    __aicore__ inline void Epilogue(uint32_t rows, uint32_t groupsValid)
    {
        LocalTensor<float> acc = accQ.DeQue<float>();
        LocalTensor<float> pooled = poolBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> peak = peakQ.AllocTensor<float>();
        uint32_t groups = tileN / pool;

        // windows are contiguous in the block, so the sums land as [rows x groups]
        WindowSums(pooled, acc, rows * groups, pool);
        accQ.FreeTensor(acc);

        uint32_t cnt = (rows * groups + 63) / 64 * 64;
        Muls(pooled, pooled, 1.0f / static_cast<float>(pool), cnt);
        GeluInPlace(pooled, tmp, cnt);
        Muls(pooled, pooled, scale, cnt);

        if (groupsValid <= 64 && (groups * sizeof(float)) % 32 == 0) {
            WholeReduceMax<float>(peak, pooled, static_cast<int32_t>(groupsValid), static_cast<int32_t>(rows),
                                  1, 1, static_cast<uint16_t>(groups * sizeof(float) / 32),
                                  ReduceOrder::ORDER_ONLY_VALUE);
        } else {
            LocalTensor<float> red = redBuf.Get<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                ReduceMax<float>(red, pooled[r * groups], tmp, groupsValid, false);
                float v = red.GetValue(0);
                peak.SetValue(r, v);
            }
        }
        peakQ.EnQue(peak);
    }

    // Partial row maxima from different column tiles meet in GM through atomic max;
    // y is pre-filled with -inf by the caller.
    __aicore__ inline void StorePeaks(uint32_t m0, uint32_t rows)
    {
        LocalTensor<float> peak = peakQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(rows * sizeof(float)), 0, 0, 0};
        SetAtomicMax<float>();
        DataCopyPad(yGm[m0], peak, cp);
        SetAtomicNone();
        peakQ.FreeTensor(peak);
    }

    TQue<TPosition::VECIN, BUFFER_NUM> accQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> peakQ;
    TBuf<TPosition::VECCALC> poolBuf, tmpBuf, redBuf;
    GlobalTensor<AB> xGm, wGm;
    GlobalTensor<float> bGm, yGm;
    uint32_t M, N, K, pool, pooledCols, tileM, tileN, tilesM, tilesN, groupsAligned;
    float scale;
};

template <typename AB>
__aicore__ inline void RunPeak(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ProjectedWindowGeluPeakKernel<AB> op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &td.mm);
    op.Init(x, w, b, y, td);
    op.Process();
}

extern "C" __global__ __aicore__ void projected_window_gelu_peak_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                        GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SetSysWorkspace(workspace);
    if (TILING_KEY_IS(1)) {
        RunPeak<float>(x, weight, bias, y, tiling);
    } else if (TILING_KEY_IS(2)) {
        RunPeak<half>(x, weight, bias, y, tiling);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <limits>

// max_j( scale * gelu( avgpool_P(x @ W^T + b)[:, j] ) ) per row
at::Tensor projected_window_gelu_peak_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                               int64_t pool_size, double scale)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && x.size(1) == weight.size(1), "bad linear shapes");
    TORCH_CHECK(weight.size(0) >= pool_size, "out_features smaller than pool window");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.to(x.scalar_type()).contiguous();
    at::Tensor bc = bias.to(at::kFloat).contiguous();
    // atomic-max accumulator: start from -inf
    at::Tensor y = at::full({x.size(0)}, -std::numeric_limits<float>::infinity(), x.options().dtype(at::kFloat));
    float scalev = static_cast<float>(scale);
    EXEC_NPU_CMD(aclnnProjectedWindowGeluPeakCustom, xc, wc, bc, pool_size, scalev, y);
    return x.scalar_type() == at::kFloat ? y : y.to(x.scalar_type());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("projected_window_gelu_peak_custom", &projected_window_gelu_peak_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("projected_window_gelu_peak_custom", &projected_window_gelu_peak_impl_npu,
          "row max of scaled GELU over average-pooled linear output");
}
"""
