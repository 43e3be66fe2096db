python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// out = BatchNorm1d_train((x @ W^T + b) * scale)
at::Tensor gemm_scale_batchnorm_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                const at::Tensor& bias, const at::Tensor& scale,
                                                const at::Tensor& gamma, const at::Tensor& beta,
                                                double eps)
{
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    TORCH_CHECK(weight.size(1) == x.size(1), "in_features mismatch");
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    float eps_f = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnGemmScaleBatchnormCustom, x.contiguous(), weight.contiguous(), bias.contiguous(),
                 scale.contiguous(), gamma.contiguous(), beta.contiguous(), eps_f, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_scale_batchnorm_custom", &gemm_scale_batchnorm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_scale_batchnorm_custom", &gemm_scale_batchnorm_custom_impl_npu,
          "linear -> scale -> batchnorm (batch statistics)");
}
"""

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmScaleBatchnormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);          // batch
  TILING_DATA_FIELD_DEF(uint32_t, n);          // out_features
  TILING_DATA_FIELD_DEF(uint32_t, k);          // in_features
  TILING_DATA_FIELD_DEF(uint32_t, nc);         // columns owned by one vector core
  TILING_DATA_FIELD_DEF(uint32_t, stripe_num); // number of column stripes
  TILING_DATA_FIELD_DEF(uint32_t, row_tile);   // rows per UB chunk in the BN stage
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm_tiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmScaleBatchnormCustom, GemmScaleBatchnormCustomTilingData)
}
"""

host_operator_src="""
#include "gemm_scale_batchnorm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
constexpr uint32_t UB_CHUNK_ELEMS = 8192;   // rows * nc floats per BN chunk

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::StorageShape* x_shape = context->GetInputShape(0);
    const gert::StorageShape* w_shape = context->GetInputShape(1);
    uint32_t m = x_shape->GetStorageShape().GetDim(0);
    uint32_t k = x_shape->GetStorageShape().GetDim(1);
    uint32_t n = w_shape->GetStorageShape().GetDim(0);

    const float* eps_ptr = context->GetAttrs()->GetAttrPointer<float>(0);
    float eps = eps_ptr == nullptr ? 1e-5f : *eps_ptr;

    // Split N into column stripes: a stripe holds every row of its columns,
    // so the batch statistics of BatchNorm stay local to one core.
    uint32_t aiv_num = plat.GetCoreNumAiv();
    uint32_t aic_num = plat.GetCoreNumAic();
    uint32_t nc = (n + aiv_num - 1) / aiv_num;
    nc = (nc + 7) / 8 * 8;
    if (nc < 8) nc = 8;
    if (nc > n) nc = n;
    uint32_t stripe_num = (n + nc - 1) / nc;

    uint32_t row_tile = UB_CHUNK_ELEMS / nc;
    if (row_tile == 0) row_tile = 1;
    if (row_tile > m) row_tile = m;

    MatmulApiTiling mm(plat);
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(m, nc, k);        // what a single core computes
    mm.SetOrgShape(m, n, k);      // full problem (strides in GM)
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);

    GemmScaleBatchnormCustomTilingData tiling;
    if (mm.GetTiling(tiling.mm_tiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_m(m);
    tiling.set_n(n);
    tiling.set_k(k);
    tiling.set_nc(nc);
    tiling.set_stripe_num(stripe_num);
    tiling.set_row_tile(row_tile);
    tiling.set_eps(eps);

    // mix kernel: one cube core drives two vector cores
    uint32_t blk_dim = (stripe_num + 1) / 2;
    if (blk_dim > aic_num) blk_dim = aic_num;
    context->SetBlockDim(blk_dim);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x_shape = context->GetInputShape(0);
    const gert::Shape* w_shape = context->GetInputShape(1);
    gert::Shape* y_shape = context->GetOutputShape(0);
    y_shape->SetDimNum(2);
    y_shape->SetDim(0, x_shape->GetDim(0));
    y_shape->SetDim(1, w_shape->GetDim(0));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GemmScaleBatchnormCustom : public OpDef {
public:
    explicit GemmScaleBatchnormCustom(const char* name) : OpDef(name)
    {
        const char* in_names[] = {"x", "weight", "bias", "scale", "gamma", "beta"};
        for (const char* nm : in_names) {
            this->Input(nm)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GemmScaleBatchnormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using a_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using b_type = MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // W is [N, K]
using c_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using bias_type = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class KernelGemmScaleBn {
public:
    __aicore__ inline KernelGemmScaleBn() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR scale, GM_ADDR gamma,
                                GM_ADDR beta, GM_ADDR y, const GemmScaleBatchnormCustomTilingData& td,
                                TPipe* pipe_ptr)
    {
        m = td.m; n = td.n; k = td.k;
        row_tile = td.row_tile;
        eps = td.eps;
        stripe = GetBlockIdx();
        active = stripe < td.stripe_num;
        col0 = stripe * td.nc;
        nc = active ? ((n - col0) < td.nc ? (n - col0) : td.nc) : 0;

        x_gm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)m * k);
        w_gm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)n * k);
        bias_gm.SetGlobalBuffer((__gm__ float*)bias, n);
        scale_gm.SetGlobalBuffer((__gm__ float*)scale, n);
        gamma_gm.SetGlobalBuffer((__gm__ float*)gamma, n);
        beta_gm.SetGlobalBuffer((__gm__ float*)beta, n);
        y_gm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)m * n);

        pipe = pipe_ptr;
        pipe->InitBuffer(io_q, 1, row_tile * td.nc * sizeof(float));
        pipe->InitBuffer(vec_buf, 6 * td.nc * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (!active) {
            return;
        }
        run_gemm();
        // y_gm for this stripe is complete once IterateAll returns
        PipeBarrier<PIPE_ALL>();
        batch_norm_stripe();
    }

    Matmul<a_type, b_type, c_type, bias_type> mm;

private:
    __aicore__ inline void run_gemm()
    {
        mm.SetTensorA(x_gm);
        mm.SetTensorB(w_gm[(uint64_t)col0 * k], true);
        mm.SetBias(bias_gm[col0]);
        mm.SetTail(m, nc, k);
        mm.IterateAll(y_gm[col0]);
        mm.End();
    }

    __aicore__ inline void load_rows(uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> t = io_q.AllocTensor<float>();
        DataCopyParams cp;
        cp.blockCount = rows;
        cp.blockLen = nc / 8;
        cp.srcStride = (n - nc) / 8;
        cp.dstStride = 0;
        DataCopy(t, y_gm[(uint64_t)r0 * n + col0], cp);
        io_q.EnQue(t);
    }

    __aicore__ inline void store_rows(LocalTensor<float>& t, uint32_t r0, uint32_t rows)
    {
        DataCopyParams cp;
        cp.blockCount = rows;
        cp.blockLen = nc / 8;
        cp.srcStride = 0;
        cp.dstStride = (n - nc) / 8;
        DataCopy(y_gm[(uint64_t)r0 * n + col0], t, cp);
    }

    __aicore__ inline void batch_norm_stripe()
    {
        LocalTensor<float> all = vec_buf.Get<float>();
        LocalTensor<float> sc = all;
        LocalTensor<float> col_sum = all[nc];
        LocalTensor<float> col_sq = all[2 * nc];
        LocalTensor<float> g = all[3 * nc];
        LocalTensor<float> b = all[4 * nc];
        LocalTensor<float> tmp = all[5 * nc];

        DataCopy(sc, scale_gm[col0], nc);
        DataCopy(g, gamma_gm[col0], nc);
        DataCopy(b, beta_gm[col0], nc);
        Duplicate(col_sum, 0.0f, nc);
        Duplicate(col_sq, 0.0f, nc);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);

        // pass 1: column sums of z = y * scale and z^2
        for (uint32_t r0 = 0; r0 < m; r0 += row_tile) {
            uint32_t rows = (m - r0) < row_tile ? (m - r0) : row_tile;
            load_rows(r0, rows);
            LocalTensor<float> t = io_q.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                LocalTensor<float> row = t[r * nc];
                Mul(row, row, sc, nc);
                Add(col_sum, col_sum, row, nc);
                MulAddDst(col_sq, row, row, nc);
            }
            io_q.FreeTensor(t);
        }

        // mean, biased var -> fused coefficients:
        //   out = y * (scale * gamma * rstd) + (beta - mean * gamma * rstd)
        float inv_m = 1.0f / static_cast<float>(m);
        Muls(col_sum, col_sum, inv_m, nc);            // mean
        Muls(col_sq, col_sq, inv_m, nc);              // E[z^2]
        Mul(tmp, col_sum, col_sum, nc);
        Sub(col_sq, col_sq, tmp, nc);                 // var
        Maxs(col_sq, col_sq, 0.0f, nc);
        Adds(col_sq, col_sq, eps, nc);
        Sqrt(col_sq, col_sq, nc);
        Duplicate(tmp, 1.0f, nc);
        Div(col_sq, tmp, col_sq, nc);                 // rstd
        Mul(g, g, col_sq, nc);                        // a = gamma * rstd
        Mul(tmp, col_sum, g, nc);
        Sub(b, b, tmp, nc);                           // shift = beta - mean * a
        Mul(sc, sc, g, nc);                           // fold the scale into a

        // pass 2: apply the affine and write back in place
        for (uint32_t r0 = 0; r0 < m; r0 += row_tile) {
            uint32_t rows = (m - r0) < row_tile ? (m - r0) : row_tile;
            load_rows(r0, rows);
            LocalTensor<float> t = io_q.DeQue<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                LocalTensor<float> row = t[r * nc];
                Mul(row, row, sc, nc);
                Add(row, row, b, nc);
            }
            event_t ev_out = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(ev_out);
            WaitFlag<HardEvent::V_MTE3>(ev_out);
            store_rows(t, r0, rows);
            event_t ev_back = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_MTE2));
            SetFlag<HardEvent::MTE3_MTE2>(ev_back);
            WaitFlag<HardEvent::MTE3_MTE2>(ev_back);
            io_q.FreeTensor(t);
        }
    }

private:
    TPipe* pipe;
    TQue<QuePosition::VECIN, 1> io_q;
    TBuf<TPosition::VECCALC> vec_buf;
    GlobalTensor<float> x_gm, w_gm, bias_gm, scale_gm, gamma_gm, beta_gm, y_gm;
    uint32_t m, n, k, nc, col0, stripe, row_tile;
    float eps;
    bool active;
};

extern "C" __global__ __aicore__ void gemm_scale_batchnorm_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                  GM_ADDR scale, GM_ADDR gamma, GM_ADDR beta,
                                                                  GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    KernelGemmScaleBn op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &td.mm_tiling);
    op.Init(x, weight, bias, scale, gamma, beta, y, td, &pipe);
    op.Process();
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, scale_shape, eps=1e-5, momentum=0.1):
        super(ModelNew, self).__init__()
        self.gemm = torch.nn.Linear(in_features, out_features)
        self.scale = torch.nn.Parameter(torch.rand(scale_shape))
        self.bn = torch.nn.BatchNorm1d(out_features, eps=eps, momentum=momentum)

    def forward(self, x):
        return custom_ops_lib.gemm_scale_batchnorm_custom(
            x, self.gemm.weight, self.gemm.bias, self.scale,
            self.bn.weight, self.bn.bias, self.bn.eps)
'''

project_json_src='''
[
    {
        "op": "GemmScaleBatchnormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "scale", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"}
        ]
    }
]
'''
