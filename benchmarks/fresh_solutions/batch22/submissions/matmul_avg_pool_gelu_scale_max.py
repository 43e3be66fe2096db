project_json_src='''
[
    {
        "op": "MatmulAvgPoolGeluScaleMaxCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "pool_kernel_size", "param_type": "required", "type": "int"},
            {"name": "scale_factor", "param_type": "required", "type": "float"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulAvgPoolGeluScaleMaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, M);
  TILING_DATA_FIELD_DEF(uint32_t, N);
  TILING_DATA_FIELD_DEF(uint32_t, K);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, pool);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulAvgPoolGeluScaleMaxCustom, MatmulAvgPoolGeluScaleMaxCustomTilingData)
}
"""

host_operator_src="""
#include "matmul_avg_pool_gelu_scale_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    MatmulAvgPoolGeluScaleMaxCustomTilingData td;
    auto xs = ctx->GetInputShape(0)->GetStorageShape();
    auto ws = ctx->GetInputShape(1)->GetStorageShape();
    uint32_t M = xs.GetDim(0), K = xs.GetDim(1), N = ws.GetDim(0);
    const auto *attrs = ctx->GetAttrs();
    uint32_t pool = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    float scale = *attrs->GetAttrPointer<float>(1);

    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t aiv = plat.GetCoreNumAiv();
    uint32_t aic = plat.GetCoreNumAic();

    // each vector core owns a band of rows and sweeps the whole N range, so the
    // row max never has to be merged across cores
    uint32_t rowsPerCore = (M + aiv - 1) / aiv;
    rowsPerCore = (rowsPerCore + 15) / 16 * 16;
    if (rowsPerCore > 64) rowsPerCore = 64;
    uint32_t bands = (M + rowsPerCore - 1) / rowsPerCore;
    uint32_t baseN = 256;           // multiple of pool so every pooling window sits in one tile
    while (baseN % pool != 0 || N % baseN != 0) {
        baseN -= 16;
        if (baseN < 16) { baseN = pool; break; }
    }

    matmul_tiling::MultiCoreMatmulTiling mt(plat);
    mt.SetDim(bands);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetSingleShape(rowsPerCore, N, K);
    mt.SetFixSplit(rowsPerCore, baseN, -1);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(td.mmTiling) == -1) return ge::GRAPH_FAILED;

    td.set_M(M); td.set_N(N); td.set_K(K);
    td.set_rowsPerCore(rowsPerCore);
    td.set_pool(pool);
    td.set_scale(scale);

    ctx->SetBlockDim((bands + 1) / 2 < aic ? (bands + 1) / 2 : aic);   // mix mode: 1 cube : 2 vector
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = ctx->GetWorkspaceSizes(1);
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
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MatmulAvgPoolGeluScaleMaxCustom : public OpDef {
public:
    explicit MatmulAvgPoolGeluScaleMaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("pool_kernel_size").Int();
        this->Attr("scale_factor").Float();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulAvgPoolGeluScaleMaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

using A_T    = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using B_T    = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float, true>;   // weight is (N, K)
using C_T    = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using BIAS_T = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;

constexpr float GELU_C = 1.5957691216057308f;   // 2*sqrt(2/pi)

// y[m] = max_j scale * gelu( mean_{p<pool} (x W^T + b)[m, j*pool + p] )
// Cube produces (rows x baseN) tiles of x W^T + b straight into UB; the vector side pools,
// applies gelu/scale and folds the tile into a running per-row max.
class MatmulPoolGeluMaxKernel {
public:
    __aicore__ inline MatmulPoolGeluMaxKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const MatmulAvgPoolGeluScaleMaxCustomTilingData &td)
    {
        M = td.M; N = td.N; K = td.K; pool = td.pool; scale = td.scale;
        band = td.rowsPerCore;
        baseN = td.mmTiling.baseN;
        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        bGm.SetGlobalBuffer((__gm__ float *)b);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        row0 = GetBlockIdx() * band;
        rows = row0 >= M ? 0 : ((row0 + band > M) ? (M - row0) : band);

        pooledPerRow = baseN / pool;
        pipe.InitBuffer(cQ, 2, band * baseN * sizeof(float));
        pipe.InitBuffer(poolBuf, band * pooledPerRow * sizeof(float));
        pipe.InitBuffer(tmpBuf, band * pooledPerRow * sizeof(float));
        pipe.InitBuffer(tileMaxBuf, (band + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(runMaxQ, 1, (band + 7) / 8 * 8 * sizeof(float));
    }

    __aicore__ inline void Process(matmul::Matmul<A_T, B_T, C_T, BIAS_T> &mm)
    {
        if (rows == 0) return;
        LocalTensor<float> runMax = runMaxQ.AllocTensor<float>();
        Duplicate(runMax, -3.4028235e38f, (band + 7) / 8 * 8);

        mm.SetTensorA(xGm[(uint64_t)row0 * K]);
        mm.SetTensorB(wGm, true);
        mm.SetBias(bGm);
        mm.SetTail(rows, N, K);
        while (mm.Iterate()) {
            LocalTensor<float> tile = cQ.AllocTensor<float>();
            mm.GetTensorC(tile);
            cQ.EnQue(tile);
            tile = cQ.DeQue<float>();
            Epilogue(tile, runMax);
            cQ.FreeTensor(tile);
        }
        mm.End();

        runMaxQ.EnQue(runMax);
        runMax = runMaxQ.DeQue<float>();
        DataCopyExtParams cp{1, rows * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[row0], runMax, cp);
        runMaxQ.FreeTensor(runMax);
    }

private:
    __aicore__ inline void Epilogue(LocalTensor<float> &tile, LocalTensor<float> &runMax)
    {
        LocalTensor<float> pooled = poolBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> tileMax = tileMaxBuf.Get<float>();
        uint32_t windows = band * pooledPerRow;          // total pooling windows in the tile
        uint32_t srcRep = pool * sizeof(float) / 32;      // window stride in 32B blocks

        // 1) window sums, at most 255 repeats per instruction
        for (uint32_t w0 = 0; w0 < windows; w0 += 240) {
            uint32_t cnt = (w0 + 240 > windows) ? (windows - w0) : 240;
            WholeReduceSum<float>(pooled[w0], tile[w0 * pool], pool, cnt, 1, 1, srcRep);
        }
        PipeBarrier<PIPE_V>();
        Muls(pooled, pooled, 1.0f / pool, windows);

        // 2) gelu(v) ~= v * sigmoid(GELU_C * (v + 0.044715 v^3))
        Mul(tmp, pooled, pooled, windows);
        Muls(tmp, tmp, 0.044715f, windows);
        Adds(tmp, tmp, 1.0f, windows);
        Mul(tmp, tmp, pooled, windows);
        Muls(tmp, tmp, -GELU_C, windows);
        Exp(tmp, tmp, windows);
        Adds(tmp, tmp, 1.0f, windows);
        Div(pooled, pooled, tmp, windows);

        // 3) scale
        Muls(pooled, pooled, scale, windows);

        // 4) per-row max of this tile, then fold into the running max
        WholeReduceMax<float>(tileMax, pooled, pooledPerRow, band, 1, 1,
                              pooledPerRow * sizeof(float) / 32, ReduceOrder::ORDER_ONLY_VALUE);
        PipeBarrier<PIPE_V>();
        Max(runMax, runMax, tileMax, band);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> cQ;
    TQue<QuePosition::VECOUT, 1> runMaxQ;
    TBuf<QuePosition::VECCALC> poolBuf, tmpBuf, tileMaxBuf;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    uint32_t M, N, K, pool, band, baseN, pooledPerRow, row0, rows;
    float scale;
public:
    __aicore__ inline TPipe *Pipe() { return &pipe; }
};

extern "C" __global__ __aicore__ void matmul_avg_pool_gelu_scale_max_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                            GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (GetUserWorkspace(workspace) == nullptr) return;
    MatmulPoolGeluMaxKernel op;
    matmul::Matmul<A_T, B_T, C_T, BIAS_T> mm;
    REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), mm, &td.mmTiling);
    op.Init(x, weight, bias, y, td);
    op.Process(mm);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_avg_pool_gelu_scale_max_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                   const at::Tensor& bias, int64_t pool_kernel_size,
                                                   double scale_factor)
{
    at::Tensor y = at::empty({x.size(0)}, x.options());
    float scale = static_cast<float>(scale_factor);
    EXEC_NPU_CMD(aclnnMatmulAvgPoolGeluScaleMaxCustom, x, weight, bias, pool_kernel_size, scale, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_avg_pool_gelu_scale_max_custom", &matmul_avg_pool_gelu_scale_max_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_avg_pool_gelu_scale_max_custom", &matmul_avg_pool_gelu_scale_max_impl_npu,
          "linear -> avgpool1d -> gelu -> scale -> max");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features, pool_kernel_size, scale_factor):
        super(ModelNew, self).__init__()
        self.matmul = torch.nn.Linear(in_features, out_features)
        self.pool_kernel_size = pool_kernel_size
        self.scale_factor = scale_factor

    def forward(self, x):
        return custom_ops_lib.matmul_avg_pool_gelu_scale_max_custom(
            x, self.matmul.weight, self.matmul.bias, self.pool_kernel_size, self.scale_factor)
'''
