project_json_src='''
[
    {
        "op": "ProjectedSoftGateSaturateCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "weight",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "bias",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {"name": "gate_scale", "param_type": "optional", "type": "float", "default_value": "0.5"},
            {"name": "bound", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ProjectedSoftGateSaturateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);     // singleCoreN blocks along N (cores walk N first)
  TILING_DATA_FIELD_DEF(float, gateScale);
  TILING_DATA_FIELD_DEF(float, bound);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ProjectedSoftGateSaturateCustom, ProjectedSoftGateSaturateTilingData)
}
"""

host_operator_src="""
#include "projected_soft_gate_saturate_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetStorageShape();
    int32_t m = static_cast<int32_t>(xs.GetDim(0));
    int32_t k = static_cast<int32_t>(xs.GetDim(1));
    int32_t n = static_cast<int32_t>(ws.GetDim(0));
    if (ws.GetDim(1) != k) {
        return ge::GRAPH_FAILED;
    }
    bool fp16 = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    DataType abType = fp16 ? DataType::DT_FLOAT16 : DataType::DT_FLOAT;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    MultiCoreMatmulTiling gemm(plat);
    gemm.SetDim(plat.GetCoreNumAiv());
    gemm.SetAType(TPosition::GM, CubeFormat::ND, abType, false);
    gemm.SetBType(TPosition::GM, CubeFormat::ND, abType, true);
    // accumulator always leaves L0C as fp32; the epilogue runs in fp32 and narrows at the end
    gemm.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
    gemm.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    gemm.SetShape(m, n, k);
    gemm.SetOrgShape(m, n, k);
    gemm.SetBias(true);
    gemm.SetFixSplit(128, 128, -1);
    gemm.SetBufferSpace(-1, -1, -1);

    ProjectedSoftGateSaturateTilingData td;
    if (gemm.GetTiling(td.gemm) == -1) {
        return ge::GRAPH_FAILED;
    }
    int32_t sn = td.gemm.get_singleCoreN();
    td.set_nBlocks(static_cast<uint32_t>((n + sn - 1) / sn));
    auto attrs = context->GetAttrs();
    const float *gs = attrs->GetAttrPointer<float>(0);
    const float *bd = attrs->GetAttrPointer<float>(1);
    td.set_gateScale(gs ? *gs : 0.5f);
    td.set_bound(bd ? *bd : 1.0f);

    context->SetTilingKey(fp16 ? 1 : 0);
    context->SetBlockDim(plat.GetCoreNumAic());
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xs = context->GetInputShape(0);
    const gert::Shape *ws = context->GetInputShape(1);
    gert::Shape *ys = context->GetOutputShape(0);
    ys->SetDimNum(2);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ProjectedSoftGateSaturateCustom : public OpDef {
public:
    explicit ProjectedSoftGateSaturateCustom(const char *name) : OpDef(name)
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
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("gate_scale").AttrType(OPTIONAL).Float(0.5f);
        this->Attr("bound").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ProjectedSoftGateSaturateCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

constexpr int32_t BUFFER_NUM = 2;

// Epilogue on one fp32 base block:
//   v = clamp(z * sigmoid(z) * gateScale, -b, b);  out = clamp(tanh(v), -b, b)
// tanh(v) = 1 - 2 / (exp(2v) + 1); v is already bounded so exp cannot overflow.
class GateSaturateEpilogue {
public:
    __aicore__ inline void Init(TPipe *pipe, uint32_t len, float gs, float b)
    {
        pipe->InitBuffer(tmpBuf, len * sizeof(float));
        gateScale = gs;
        bound = b;
    }

    __aicore__ inline void Run(const LocalTensor<float> &z, uint32_t len)
    {
        LocalTensor<float> d = tmpBuf.Get<float>();
        Muls(d, z, -1.0f, len);
        PipeBarrier<PIPE_V>();
        Exp(d, d, len);
        PipeBarrier<PIPE_V>();
        Adds(d, d, 1.0f, len);
        PipeBarrier<PIPE_V>();
        Div(z, z, d, len);                  // swish
        PipeBarrier<PIPE_V>();
        Muls(z, z, gateScale, len);         // / 2
        PipeBarrier<PIPE_V>();
        Mins(z, z, bound, len);
        PipeBarrier<PIPE_V>();
        Maxs(z, z, -bound, len);
        PipeBarrier<PIPE_V>();
        Muls(d, z, 2.0f, len);
        PipeBarrier<PIPE_V>();
        Exp(d, d, len);
        PipeBarrier<PIPE_V>();
        Adds(d, d, 1.0f, len);
        PipeBarrier<PIPE_V>();
        Duplicate(z, -2.0f, len);
        PipeBarrier<PIPE_V>();
        Div(z, z, d, len);
        PipeBarrier<PIPE_V>();
        Adds(z, z, 1.0f, len);              // tanh
        PipeBarrier<PIPE_V>();
        Mins(z, z, bound, len);
        PipeBarrier<PIPE_V>();
        Maxs(z, z, -bound, len);
        PipeBarrier<PIPE_V>();
    }

private:
    TBuf<TPosition::VECCALC> tmpBuf;
    float gateScale = 0.5f;
    float bound = 1.0f;
};

template <typename T>
class ProjectedSoftGateSaturate {
public:
    using A = MatmulType<TPosition::GM, CubeFormat::ND, T, false>;
    using B = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;
    using C = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using Bias = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    Matmul<A, B, C, Bias> gemm;

    __aicore__ inline ProjectedSoftGateSaturate() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const ProjectedSoftGateSaturateTilingData &td, TPipe *pipe)
    {
        cfg = td.gemm;
        // cores walk the N blocks first so neighbouring cores share rows of x
        uint32_t idx = GetBlockIdx();
        uint32_t nIdx = idx % td.nBlocks;
        uint32_t mIdx = idx / td.nBlocks;
        rowStart = mIdx * cfg.singleCoreM;
        colStart = nIdx * cfg.singleCoreN;
        active = rowStart < (uint32_t)cfg.M && colStart < (uint32_t)cfg.N;
        rowCnt = active ? Min(cfg.singleCoreM, cfg.M - (int32_t)rowStart) : 0;
        colCnt = active ? Min(cfg.singleCoreN, cfg.N - (int32_t)colStart) : 0;

        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), (uint64_t)cfg.M * cfg.Ka);
        wGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(w), (uint64_t)cfg.N * cfg.Kb);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), (uint64_t)cfg.N);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), (uint64_t)cfg.M * cfg.N);

        blockLen = cfg.baseM * cfg.baseN;
        pipe->InitBuffer(cQue, BUFFER_NUM, blockLen * sizeof(float));
        pipe->InitBuffer(yQue, BUFFER_NUM, blockLen * sizeof(T));
        epi.Init(pipe, blockLen, td.gateScale, td.bound);
    }

    __aicore__ inline void Process()
    {
        if (!active) {
            return;
        }
        gemm.SetTail(rowCnt, colCnt);
        gemm.SetTensorA(xGm[(uint64_t)rowStart * cfg.Ka]);
        gemm.SetTensorB(wGm[(uint64_t)colStart * cfg.Kb], true);
        gemm.SetBias(bGm[colStart]);

        uint32_t mSteps = (rowCnt + cfg.baseM - 1) / cfg.baseM;
        uint32_t it = 0;
        while (gemm.template Iterate<true>()) {
            LocalTensor<float> c = cQue.AllocTensor<float>();
            gemm.template GetTensorC<true>(c, false, true);
            cQue.EnQue(c);
            Epilogue();
            Emit(it % mSteps, it / mSteps);
            ++it;
        }
        gemm.End();
    }

private:
    __aicore__ inline int32_t Min(int32_t a, int32_t b) { return a < b ? a : b; }

    __aicore__ inline void Epilogue()
    {
        LocalTensor<float> c = cQue.DeQue<float>();
        LocalTensor<T> out = yQue.AllocTensor<T>();
        epi.Run(c, blockLen);
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(out, c, blockLen);
        } else {
            Cast(out, c, RoundMode::CAST_ROUND, blockLen);
        }
        yQue.EnQue(out);
        cQue.FreeTensor(c);
    }

    __aicore__ inline void Emit(uint32_t mi, uint32_t ni)
    {
        LocalTensor<T> out = yQue.DeQue<T>();
        uint32_t r0 = mi * cfg.baseM;
        uint32_t c0 = ni * cfg.baseN;
        uint32_t rows = Min(cfg.baseM, rowCnt - r0);
        uint32_t cols = Min(cfg.baseN, colCnt - c0);
        uint64_t dst = (uint64_t)(rowStart + r0) * cfg.N + colStart + c0;
        uint32_t bytes = cols * sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(rows), bytes,
                             static_cast<uint32_t>((cfg.baseN * sizeof(T) - (bytes + 31) / 32 * 32) / 32),
                             static_cast<uint32_t>((cfg.N - cols) * sizeof(T)), 0};
        DataCopyPad(yGm[dst], out, cp);
        yQue.FreeTensor(out);
    }

    TQue<QuePosition::VECIN, BUFFER_NUM> cQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    GlobalTensor<T> xGm, wGm, yGm;
    GlobalTensor<float> bGm;
    GateSaturateEpilogue epi;
    TCubeTiling cfg;
    uint32_t rowStart, colStart, rowCnt, colCnt, blockLen;
    bool active;
};

template <typename T>
__aicore__ inline void LaunchGate(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                  const ProjectedSoftGateSaturateTilingData &td)
{
    TPipe pipe;
    ProjectedSoftGateSaturate<T> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.gemm, &td.gemm);
    op.Init(x, w, b, y, td, &pipe);
    op.Process();
}

extern "C" __global__ __aicore__ void projected_soft_gate_saturate_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                          GM_ADDR y, GM_ADDR workspace,
                                                                          GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        LaunchGate<float>(x, weight, bias, y, td);
    } else if (TILING_KEY_IS(1)) {
        LaunchGate<half>(x, weight, bias, y, td);
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = clamp(tanh(clamp(swish(x W^T + b) * gate_scale, -bound, bound)), -bound, bound)
at::Tensor projected_soft_gate_saturate_impl_npu(const at::Tensor &x, const at::Tensor &weight,
                                                 const at::Tensor &bias, double gate_scale, double bound)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && x.size(1) == weight.size(1), "shape mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor b32 = bias.to(at::kFloat).contiguous();   // bias is added on the fp32 accumulator
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    float gs = static_cast<float>(gate_scale);
    float bd = static_cast<float>(bound);
    EXEC_NPU_CMD(aclnnProjectedSoftGateSaturateCustom, xc, wc, b32, gs, bd, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("projected_soft_gate_saturate_custom", &projected_soft_gate_saturate_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("projected_soft_gate_saturate_custom", &projected_soft_gate_saturate_impl_npu,
          "gemm + swish + /2 + clamp + tanh + clamp");
}
"""
