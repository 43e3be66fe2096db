project_json_src='''
[
    {
        "op": "ClusterResidualDoubleNormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "agg", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "mass", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "centers", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClusterResidualDoubleNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, clusters);       // K
  TILING_DATA_FIELD_DEF(uint32_t, dim);            // D
  TILING_DATA_FIELD_DEF(uint32_t, dimPad);         // D rounded to 64 elements
  TILING_DATA_FIELD_DEF(uint32_t, clustersPad);    // K rounded to 64 for the per-row statistic vectors
  TILING_DATA_FIELD_DEF(uint32_t, batchPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, batchTail);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClusterResidualDoubleNormCustom, ClusterResidualDoubleNormTilingData)
}
"""

host_operator_src="""
#include "cluster_residual_double_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp64(uint32_t v) { return (v + 63) / 64 * 64; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ClusterResidualDoubleNormTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape& as = context->GetInputShape(0)->GetStorageShape();   // [B, K, D]
    uint32_t b = static_cast<uint32_t>(as.GetDim(0));
    uint32_t k = static_cast<uint32_t>(as.GetDim(1));
    uint32_t d = static_cast<uint32_t>(as.GetDim(2));

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t used = b < cores ? b : cores;
    if (used == 0) {
        used = 1;
    }
    td.set_batch(b);
    td.set_clusters(k);
    td.set_dim(d);
    td.set_dimPad(RoundUp64(d));
    td.set_clustersPad(RoundUp64(k));
    td.set_batchPerCore(b / used);
    td.set_batchTail(b % used);
    td.set_eps(1e-12f);   // F.normalize default

    context->SetBlockDim(used);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ClusterResidualDoubleNormCustom : public OpDef {
public:
    explicit ClusterResidualDoubleNormCustom(const char* name) : OpDef(name)
    {
        this->Input("agg").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("mass").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("centers").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ClusterResidualDoubleNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

__aicore__ inline void SyncVS()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
}

__aicore__ inline void SyncSV()
{
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(e);
    WaitFlag<HardEvent::S_V>(e);
}

// For every batch b:   r_k = agg[b,k,:] - mass[b,k] * centers[k,:]
//                      r_k /= max(||r_k||, eps)               (intra norm)
//                      R   /= max(||R||_F, eps)               (global norm over all k)
// Pass 1 only gathers ||r_k||^2; pass 2 recomputes r_k and applies both scales at once,
// so nothing is re-read from the output.
template <typename T>
class ClusterResidualDoubleNorm {
public:
    __aicore__ inline ClusterResidualDoubleNorm() {}

    __aicore__ inline void Init(GM_ADDR agg, GM_ADDR mass, GM_ADDR centers, GM_ADDR y,
                                const ClusterResidualDoubleNormTilingData& t)
    {
        K = t.clusters;
        D = t.dim;
        DP = t.dimPad;
        KP = t.clustersPad;
        eps = t.eps;
        uint32_t idx = GetBlockIdx();
        nBatch = t.batchPerCore + (idx < t.batchTail ? 1 : 0);
        b0 = idx * t.batchPerCore + (idx < t.batchTail ? idx : t.batchTail);

        uint64_t total = static_cast<uint64_t>(t.batch) * K * D;
        aggGm.SetGlobalBuffer((__gm__ T*)agg, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);
        massGm.SetGlobalBuffer((__gm__ T*)mass, static_cast<uint64_t>(t.batch) * K);
        ctrGm.SetGlobalBuffer((__gm__ T*)centers, static_cast<uint64_t>(K) * D);

        pipe.InitBuffer(rowQ, BUFFER_NUM, DP * sizeof(T));
        pipe.InitBuffer(ctrQ, BUFFER_NUM, DP * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, DP * sizeof(T));
        pipe.InitBuffer(resBuf, DP * sizeof(float));
        pipe.InitBuffer(ctrFBuf, DP * sizeof(float));
        pipe.InitBuffer(sqBuf, DP * sizeof(float));
        pipe.InitBuffer(redBuf, DP * sizeof(float));
        pipe.InitBuffer(statBuf, 3 * KP * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < nBatch; ++i) {
            uint32_t b = b0 + i;
            LocalTensor<float> ss = statBuf.Get<float>();
            for (uint32_t k = 0; k < K; ++k) {
                Fetch(b, k);
                float m = static_cast<float>(massGm.GetValue(static_cast<uint64_t>(b) * K + k));
                Residual(m);
                ss.SetValue(k, SumSquares());
            }
            float g = RowScales(ss);
            LocalTensor<float> rowInv = ss[KP];
            for (uint32_t k = 0; k < K; ++k) {
                Fetch(b, k);
                float m = static_cast<float>(massGm.GetValue(static_cast<uint64_t>(b) * K + k));
                Residual(m);
                float s = rowInv.GetValue(k) * g;
                Emit(static_cast<uint64_t>(b) * K * D + static_cast<uint64_t>(k) * D, s);
            }
        }
    }

private:
    __aicore__ inline void Fetch(uint32_t b, uint32_t k)
    {
        LocalTensor<T> row = rowQ.AllocTensor<T>();
        LocalTensor<T> c = ctrQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(D * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        DataCopyPad(row, aggGm[(static_cast<uint64_t>(b) * K + k) * D], cp, pad);
        DataCopyPad(c, ctrGm[static_cast<uint64_t>(k) * D], cp, pad);
        rowQ.EnQue(row);
        ctrQ.EnQue(c);
    }

    // resBuf <- agg_row - m * center_row  (fp32)
    __aicore__ inline void Residual(float m)
    {
        LocalTensor<T> row = rowQ.DeQue<T>();
        LocalTensor<T> c = ctrQ.DeQue<T>();
        LocalTensor<float> r = resBuf.Get<float>();
        LocalTensor<float> cf = ctrFBuf.Get<float>();
        SyncSV();
        if constexpr (IsSameType<T, float>::value) {
            Muls(cf, c, m, D);
            Sub(r, row, cf, D);
        } else {
            Cast(r, row, RoundMode::CAST_NONE, D);
            Cast(cf, c, RoundMode::CAST_NONE, D);
            Muls(cf, cf, m, D);
            Sub(r, r, cf, D);
        }
        rowQ.FreeTensor(row);
        ctrQ.FreeTensor(c);
    }

    __aicore__ inline float SumSquares()
    {
        LocalTensor<float> r = resBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        Mul(sq, r, r, D);
        ReduceSum(red, sq, sq, D);
        SyncVS();
        return red.GetValue(0);
    }

    // stat layout: [0,KP) ||r_k||^2, [KP,2KP) 1/max(||r_k||,eps), [2KP,3KP) scratch.
    // Returns the global scale 1/max(||R||,eps) where R holds the intra-normalised rows.
    __aicore__ inline float RowScales(const LocalTensor<float>& ss)
    {
        LocalTensor<float> inv = ss[KP];
        LocalTensor<float> tmp = ss[2 * KP];
        LocalTensor<float> red = redBuf.Get<float>();
        SyncSV();
        Sqrt(tmp, ss, K);
        Maxs(tmp, tmp, eps, K);
        Duplicate(inv, 1.0f, K);
        Div(inv, inv, tmp, K);
        Mul(tmp, inv, inv, K);
        Mul(tmp, tmp, ss, K);                 // squared norm of each normalised row (1 or 0)
        ReduceSum(red, tmp, tmp, K);
        SyncVS();
        float total = red.GetValue(0);
        // scalar sqrt via a one-element vector op
        red.SetValue(0, total);
        SyncSV();
        Sqrt(red, red, 1);
        SyncVS();
        float norm = red.GetValue(0);
        return 1.0f / (norm > eps ? norm : eps);
    }

    __aicore__ inline void Emit(uint64_t off, float s)
    {
        LocalTensor<float> r = resBuf.Get<float>();
        LocalTensor<T> o = outQ.AllocTensor<T>();
        SyncSV();
        if constexpr (IsSameType<T, float>::value) {
            Muls(o, r, s, D);
        } else {
            Muls(r, r, s, D);
            Cast(o, r, RoundMode::CAST_ROUND, D);
        }
        outQ.EnQue(o);
        o = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(D * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], o, cp);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQ, ctrQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> resBuf, ctrFBuf, sqBuf, redBuf, statBuf;
    GlobalTensor<T> aggGm, massGm, ctrGm, yGm;
    uint32_t K = 0, D = 0, DP = 0, KP = 0, nBatch = 0, b0 = 0;
    float eps = 1e-12f;
};

extern "C" __global__ __aicore__ void cluster_residual_double_norm_custom(GM_ADDR agg, GM_ADDR mass, GM_ADDR centers,
                                                                          GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        ClusterResidualDoubleNorm<float> op;
        op.Init(agg, mass, centers, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        ClusterResidualDoubleNorm<half> op;
        op.Init(agg, mass, centers, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// agg [B,K,D], mass [B,K], centers [K,D] -> doubly L2-normalised residuals [B,K,D]
at::Tensor cluster_residual_double_norm_impl_npu(const at::Tensor& agg, const at::Tensor& mass,
                                                 const at::Tensor& centers)
{
    at::Tensor a = agg.contiguous();
    at::Tensor m = mass.to(a.scalar_type()).contiguous();
    at::Tensor c = centers.to(a.scalar_type()).contiguous();
    at::Tensor result = at::empty_like(a);
    EXEC_NPU_CMD(aclnnClusterResidualDoubleNormCustom, a, m, c, result);
    return result;
}

// NetVLAD forward: soft assignment (GEMM + BN + softmax) and aggregation run on the framework,
// the residual + intra/global normalisation runs in the custom kernel.
at::Tensor vlad_pool_forward_npu(const at::Tensor& x, const at::Tensor& clusters, const at::Tensor& bnWeight,
                                 const at::Tensor& bnBias, const at::Tensor& bnMean, const at::Tensor& bnVar,
                                 const at::Tensor& clusters2, int64_t clusterSize, bool training)
{
    int64_t B = x.size(0);
    int64_t N = x.size(1);
    int64_t D = x.size(2);
    at::Tensor flat = x.reshape({-1, D});
    at::Tensor assign = at::matmul(flat, clusters);
    assign = at::batch_norm(assign, bnWeight, bnBias, bnMean, bnVar, training, 0.1, 1e-5, false);
    assign = at::softmax(assign, 1);
    assign = assign.narrow(1, 0, clusterSize).reshape({B, N, clusterSize});
    at::Tensor mass = at::sum(assign, {1});                            // [B, K]
    at::Tensor agg = at::bmm(assign.transpose(1, 2), x);              // [B, K, D]
    at::Tensor centers = clusters2.reshape({D, clusterSize}).t();     // [K, D]
    at::Tensor v = cluster_residual_double_norm_impl_npu(agg, mass, centers);
    return v.transpose(1, 2).reshape({B, D * clusterSize});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cluster_residual_double_norm_custom", &cluster_residual_double_norm_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cluster_residual_double_norm_custom", &cluster_residual_double_norm_impl_npu,
          "VLAD residual with intra and global L2 normalisation");
    m.def("vlad_pool_forward", &vlad_pool_forward_npu, "NetVLAD (no ghost clusters) forward");
}
"""
