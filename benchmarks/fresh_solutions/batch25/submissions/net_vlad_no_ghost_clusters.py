project_json_src='''
[
    {
        "op": "NetVladNoGhostClustersCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "vlad", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "a_sum", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "clusters2_t", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NetVladNoGhostClustersCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, clusters);     // K
  TILING_DATA_FIELD_DEF(uint32_t, featSize);     // D
  TILING_DATA_FIELD_DEF(uint32_t, aSumStride);   // padded K for the a_sum rows
  TILING_DATA_FIELD_DEF(uint32_t, batchPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, batchTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(NetVladNoGhostClustersCustom, NetVladNoGhostClustersCustomTilingData)
}
"""

host_operator_src="""
#include "net_vlad_no_ghost_clusters_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    NetVladNoGhostClustersCustomTilingData tiling;
    // vlad: (B, K, D)   a_sum: (B, K)   clusters2_t: (K, D)
    const auto& vs = context->GetInputShape(0)->GetStorageShape();
    uint32_t B = vs.GetDim(0);
    uint32_t K = vs.GetDim(1);
    uint32_t D = vs.GetDim(2);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;
    if (coreNum > B) coreNum = B;

    tiling.set_batch(B);
    tiling.set_clusters(K);
    tiling.set_featSize(D);
    tiling.set_aSumStride((K + 7) / 8 * 8);
    tiling.set_batchPerCore(B / coreNum);
    tiling.set_batchTail(B % coreNum);

    context->SetBlockDim(coreNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
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
class NetVladNoGhostClustersCustom : public OpDef {
public:
    explicit NetVladNoGhostClustersCustom(const char* name) : OpDef(name)
    {
        this->Input("vlad").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("a_sum").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("clusters2_t").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(NetVladNoGhostClustersCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 1;   // one (K x D) item is 64KB; UB also holds the centres
constexpr float NORM_EPS = 1e-12f;   // F.normalize default eps

// Residual + double L2 normalization of NetVLAD, done per batch item in the
// (K, D) layout so every cluster's residual is a contiguous row:
//   r[k, :] = vlad[k, :] - a_sum[k] * c2t[k, :]
//   r[k, :] /= max(||r[k, :]||, eps)          (intra-normalization over D)
//   r       /= max(||r||, eps)                (global normalization)
// The host transposes the result back to (B, D*K).
class KernelNetVladNorm {
public:
    __aicore__ inline KernelNetVladNorm() {}
    __aicore__ inline void Init(GM_ADDR vlad, GM_ADDR aSum, GM_ADDR c2t, GM_ADDR out,
                                uint32_t K, uint32_t D, uint32_t kPad,
                                uint32_t perCore, uint32_t tail)
    {
        this->K = K;
        this->D = D;
        this->kPad = kPad;
        this->itemElems = K * D;
        uint32_t blk = AscendC::GetBlockIdx();
        count = perCore + (blk < tail ? 1 : 0);
        first = blk * perCore + (blk < tail ? blk : tail);

        vGm.SetGlobalBuffer((__gm__ float*)vlad);
        oGm.SetGlobalBuffer((__gm__ float*)out);
        aGm.SetGlobalBuffer((__gm__ float*)aSum);
        cGm.SetGlobalBuffer((__gm__ float*)c2t, itemElems);

        // in-place: the residual overwrites the loaded tile, which is then written back
        pipe.InitBuffer(vQue, BUFFER_NUM, itemElems * sizeof(float));
        pipe.InitBuffer(centerBuf, itemElems * sizeof(float));
        pipe.InitBuffer(sqBuf, D * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(aBuf, kPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        // cluster centres are shared by every batch item: load once
        AscendC::LocalTensor<float> centers = centerBuf.Get<float>();
        AscendC::DataCopy(centers, cGm, itemElems);
        event_t e0 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(e0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(e0);

        for (uint32_t i = 0; i < count; ++i) {
            uint64_t b = first + i;
            CopyIn(b);
            Compute(centers);
            CopyOut(b);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t b)
    {
        AscendC::LocalTensor<float> v = vQue.AllocTensor<float>();
        AscendC::DataCopy(v, vGm[b * itemElems], itemElems);
        vQue.EnQue(v);
        // a_sum row of this item (K floats, may be unaligned -> pad copy)
        AscendC::LocalTensor<float> a = aBuf.Get<float>();
        AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(K * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(a, aGm[b * K], p, pad);
        event_t e = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(e);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(e);
    }

    // returns ||src||^2 in ss and max(||src||, eps) in nrm
    __aicore__ inline void SumSquares(const AscendC::LocalTensor<float>& src, uint32_t len, float& ss, float& nrm)
    {
        AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        AscendC::Mul(sq, src, src, len);
        AscendC::ReduceSum<float>(red, sq, sq, len);
        AscendC::Sqrt(red[8], red, 1);
        AscendC::Maxs(red[8], red[8], NORM_EPS, 1);
        event_t e = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(e);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(e);
        ss = red.GetValue(0);
        nrm = red.GetValue(8);
    }

    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& centers)
    {
        AscendC::LocalTensor<float> v = vQue.DeQue<float>();
        AscendC::LocalTensor<float> o = v;
        AscendC::LocalTensor<float> a = aBuf.Get<float>();

        float total = 0.0f;
        for (uint32_t k = 0; k < K; ++k) {
            AscendC::LocalTensor<float> row = o[k * D];
            float ak = a.GetValue(k);
            // residual: vlad - a_sum * c_k
            AscendC::LocalTensor<float> tmp = sqBuf.Get<float>();
            AscendC::Muls(tmp, centers[k * D], ak, D);
            AscendC::Sub(row, row, tmp, D);
            float ss = 0.0f;
            float nrm = NORM_EPS;
            SumSquares(row, D, ss, nrm);
            float inv = 1.0f / nrm;
            AscendC::Muls(row, row, inv, D);
            total += ss * inv * inv;
        }
        // global norm of the intra-normalized matrix (computed on the vector unit)
        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        AscendC::Duplicate(red[16], total, 8);
        AscendC::Sqrt(red[16], red[16], 8);
        AscendC::Maxs(red[16], red[16], NORM_EPS, 8);
        event_t e1 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(e1);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(e1);
        float gn = red.GetValue(16);
        AscendC::Muls(o, o, 1.0f / gn, itemElems);

        vQue.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint64_t b)
    {
        AscendC::LocalTensor<float> o = vQue.DeQue<float>();
        AscendC::DataCopy(oGm[b * itemElems], o, itemElems);
        vQue.FreeTensor(o);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> vQue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> centerBuf, sqBuf, redBuf, aBuf;
    AscendC::GlobalTensor<float> vGm, oGm, aGm, cGm;
    uint32_t K, D, kPad, itemElems, count, first;
};

extern "C" __global__ __aicore__ void net_vlad_no_ghost_clusters_custom(GM_ADDR vlad, GM_ADDR a_sum,
                                                                        GM_ADDR clusters2_t, GM_ADDR out,
                                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelNetVladNorm op;
    op.Init(vlad, a_sum, clusters2_t, out, td.clusters, td.featSize, td.aSumStride,
            td.batchPerCore, td.batchTail);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x: (B, N, D); clusters: (D, K); clusters2: (1, D, K); BatchNorm1d(K) params
at::Tensor net_vlad_no_ghost_clusters_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& clusters, const at::Tensor& clusters2,
    const at::Tensor& bn_weight, const at::Tensor& bn_bias,
    const at::Tensor& bn_running_mean, const at::Tensor& bn_running_var,
    bool training, double momentum, double eps, int64_t cluster_size)
{
    int64_t B = x.size(0);
    int64_t N = x.size(1);
    int64_t D = x.size(2);
    int64_t K = cluster_size;

    at::Tensor xf = x.reshape({B * N, D});
    at::Tensor assignment = at::matmul(xf, clusters);                        // BN x K
    assignment = at::batch_norm(assignment, bn_weight, bn_bias, bn_running_mean, bn_running_var,
                                training, momentum, eps, false);
    assignment = at::softmax(assignment, 1);
    assignment = assignment.narrow(1, 0, K).reshape({B, N, K});
    at::Tensor aSum = at::sum(assignment, {1}).contiguous();                 // B x K

    // (B, K, N) x (B, N, D) -> (B, K, D): residual rows stay contiguous along D
    at::Tensor vlad = at::bmm(assignment.transpose(1, 2), x).contiguous();
    at::Tensor c2t = clusters2.reshape({D, K}).t().contiguous();             // K x D

    at::Tensor out = at::empty_like(vlad);
    EXEC_NPU_CMD(aclnnNetVladNoGhostClustersCustom, vlad, aSum, c2t, out);
    // (B, K, D) -> (B, D, K) -> (B, D*K)
    return out.transpose(1, 2).contiguous().view({B, D * K});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("net_vlad_no_ghost_clusters_custom", &net_vlad_no_ghost_clusters_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("net_vlad_no_ghost_clusters_custom", &net_vlad_no_ghost_clusters_custom_impl_npu,
          "NetVLAD aggregation (no ghost clusters)");
}
"""

model_src='''
import math
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, cluster_size, feature_size, ghost_clusters):
        super(ModelNew, self).__init__()
        self.feature_size = feature_size
        self.cluster_size = cluster_size
        self.ghost_clusters = ghost_clusters
        init_sc = (1 / math.sqrt(feature_size))
        clusters = cluster_size + ghost_clusters
        self.clusters = nn.Parameter(init_sc * torch.randn(feature_size, clusters))
        self.batch_norm = nn.BatchNorm1d(clusters)
        self.clusters2 = nn.Parameter(init_sc * torch.randn(1, feature_size, cluster_size))
        self.out_dim = self.cluster_size * feature_size

    def forward(self, x, mask=None):
        bn = self.batch_norm
        return custom_ops_lib.net_vlad_no_ghost_clusters_custom(
            x, self.clusters, self.clusters2, bn.weight, bn.bias, bn.running_mean, bn.running_var,
            self.training, bn.momentum, bn.eps, self.cluster_size)
'''
