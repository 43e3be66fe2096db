project_json_src='''
[
    {
        "op": "MomentumDescentStepCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "param", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "grad", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "velocity", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "param_out", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "momentum", "param_type": "optional", "type": "float", "default_value": "0.9"},
            {"name": "lr", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MomentumDescentStepTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, momentum);
  TILING_DATA_FIELD_DEF(float, lr);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MomentumDescentStepCustom, MomentumDescentStepTilingData)
}
"""

host_operator_src="""
#include "momentum_descent_step_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;
// 3 input queues + 1 output queue, double buffered, plus one fp32 scratch for half
constexpr uint32_t UB_SLOTS = 4 * BUFFER_NUM + 2;

struct StepSplit {
    uint64_t total;
    uint32_t typeSize;
    uint32_t cores;
    uint64_t perCore;
    uint32_t tile;

    void Build(uint32_t coreNum, uint64_t ubBytes)
    {
        uint32_t alignElems = BLOCK_BYTES / typeSize;
        uint64_t blocks = (total + alignElems - 1) / alignElems;
        cores = blocks < coreNum ? static_cast<uint32_t>(blocks) : coreNum;
        if (cores == 0) cores = 1;
        // every core starts on a 32B boundary
        perCore = (blocks + cores - 1) / cores * alignElems;
        cores = static_cast<uint32_t>((total + perCore - 1) / perCore);
        uint64_t maxTile = ubBytes / UB_SLOTS / sizeof(float);
        maxTile = maxTile / 256 * 256;
        tile = static_cast<uint32_t>(perCore < maxTile ? perCore : maxTile);
    }
};
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MomentumDescentStepTilingData tiling;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    StepSplit split{};
    split.total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    split.typeSize = (dt == ge::DT_FLOAT16) ? 2 : 4;
    split.Build(plat.GetCoreNumAiv(), ubSize - 1024);

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    const float *mom = attrs->GetAttrPointer<float>(0);
    const float *lr = attrs->GetAttrPointer<float>(1);

    tiling.set_totalLength(split.total);
    tiling.set_perCore(split.perCore);
    tiling.set_tileLength(split.tile);
    tiling.set_momentum(mom == nullptr ? 0.9f : *mom);
    tiling.set_lr(lr == nullptr ? 0.01f : *lr);

    context->SetBlockDim(split.cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
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
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MomentumDescentStepCustom : public OpDef {
public:
    explicit MomentumDescentStepCustom(const char* name) : OpDef(name)
    {
        const char *ins[] = {"param", "grad", "velocity"};
        for (const char *nm : ins) {
            this->Input(nm)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("param_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("momentum").AttrType(OPTIONAL).Float(0.9f);
        this->Attr("lr").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MomentumDescentStepCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// v' = mu * v + g ;  p' = p - lr * v'   (computed in the native dtype for float, fp32 for half)
template <typename C>
struct StepMath {
    __aicore__ static inline void Apply(const AscendC::LocalTensor<C> &p, const AscendC::LocalTensor<C> &g,
                                        const AscendC::LocalTensor<C> &v, float mu, float lr, uint32_t n)
    {
        AscendC::Muls(v, v, static_cast<C>(mu), n);
        AscendC::Add(v, v, g, n);
        AscendC::Axpy(p, v, static_cast<C>(-lr), n);
    }
};

template <typename T>
class MomentumDescentStep {
public:
    __aicore__ inline MomentumDescentStep() {}
    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR vel, GM_ADDR out,
                                const MomentumDescentStepTilingData &td)
    {
        mu = td.momentum;
        lr = td.lr;
        tile = td.tileLength;
        uint64_t start = static_cast<uint64_t>(AscendC::GetBlockIdx()) * td.perCore;
        uint64_t remain = td.totalLength > start ? td.totalLength - start : 0;
        mine = remain < td.perCore ? remain : td.perCore;

        pGm.SetGlobalBuffer((__gm__ T *)param + start, mine);
        gGm.SetGlobalBuffer((__gm__ T *)grad + start, mine);
        vGm.SetGlobalBuffer((__gm__ T *)vel + start, mine);
        oGm.SetGlobalBuffer((__gm__ T *)out + start, mine);

        pipe.InitBuffer(pQue, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(gQue, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(vQue, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(oQue, BUFFER_NUM, tile * sizeof(T));
        if constexpr (!std::is_same<T, float>::value) {
            // fp32 copies of p, g, v for the half path
            pipe.InitBuffer(wide, 3 * tile * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint64_t loops = (mine + tile - 1) / tile;
        for (uint64_t i = 0; i < loops; ++i) {
            uint64_t off = i * tile;
            uint32_t cnt = static_cast<uint32_t>((mine - off) < tile ? (mine - off) : tile);
            CopyIn(off, cnt);
            Compute(cnt);
            CopyOut(off, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::LocalTensor<T> p = pQue.AllocTensor<T>();
        AscendC::LocalTensor<T> g = gQue.AllocTensor<T>();
        AscendC::LocalTensor<T> v = vQue.AllocTensor<T>();
        AscendC::DataCopyPad(p, pGm[off], cp, pad);
        AscendC::DataCopyPad(g, gGm[off], cp, pad);
        AscendC::DataCopyPad(v, vGm[off], cp, pad);
        pQue.EnQue(p);
        gQue.EnQue(g);
        vQue.EnQue(v);
    }

    __aicore__ inline void Compute(uint32_t cnt)
    {
        AscendC::LocalTensor<T> p = pQue.DeQue<T>();
        AscendC::LocalTensor<T> g = gQue.DeQue<T>();
        AscendC::LocalTensor<T> v = vQue.DeQue<T>();
        AscendC::LocalTensor<T> o = oQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            StepMath<float>::Apply(p, g, v, mu, lr, cnt);
            AscendC::DataCopy(o, p, AlignCount(cnt));
        } else {
            AscendC::LocalTensor<float> w = wide.Get<float>();
            AscendC::LocalTensor<float> pf = w;
            AscendC::LocalTensor<float> gf = w[tile];
            AscendC::LocalTensor<float> vf = w[2 * tile];
            AscendC::Cast(pf, p, AscendC::RoundMode::CAST_NONE, cnt);
            AscendC::Cast(gf, g, AscendC::RoundMode::CAST_NONE, cnt);
            AscendC::Cast(vf, v, AscendC::RoundMode::CAST_NONE, cnt);
            StepMath<float>::Apply(pf, gf, vf, mu, lr, cnt);
            AscendC::Cast(o, pf, AscendC::RoundMode::CAST_ROUND, cnt);
        }
        oQue.EnQue(o);
        pQue.FreeTensor(p);
        gQue.FreeTensor(g);
        vQue.FreeTensor(v);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        AscendC::LocalTensor<T> o = oQue.DeQue<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(oGm[off], o, cp);
        oQue.FreeTensor(o);
    }

    // UB->UB copy length rounded to a 32B block
    __aicore__ inline uint32_t AlignCount(uint32_t cnt) const
    {
        constexpr uint32_t per = 32 / sizeof(T);
        return (cnt + per - 1) / per * per;
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> pQue, gQue, vQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> oQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wide;
    AscendC::GlobalTensor<T> pGm, gGm, vGm, oGm;
    uint64_t mine;
    uint32_t tile;
    float mu, lr;
};

extern "C" __global__ __aicore__ void momentum_descent_step_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR velocity,
                                                                   GM_ADDR param_out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        MomentumDescentStep<float> op;
        op.Init(param, grad, velocity, param_out, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        MomentumDescentStep<half> op;
        op.Init(param, grad, velocity, param_out, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor momentum_descent_step_impl_npu(const at::Tensor& param, const at::Tensor& grad,
                                          const at::Tensor& velocity, double momentum, double lr)
{
    TORCH_CHECK(param.sizes() == grad.sizes() && param.sizes() == velocity.sizes(), "shape mismatch");
    at::Tensor p = param.contiguous();
    at::Tensor g = grad.contiguous();
    at::Tensor v = velocity.contiguous();
    at::Tensor out = at::empty_like(p);
    EXEC_NPU_CMD(aclnnMomentumDescentStepCustom, p, g, v, momentum, lr, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("momentum_descent_step_custom", &momentum_descent_step_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("momentum_descent_step_custom", &momentum_descent_step_impl_npu,
          "SGD with momentum: returns updated parameters",
          py::arg("param"), py::arg("grad"), py::arg("velocity"),
          py::arg("momentum") = 0.9, py::arg("lr") = 0.01);
}
"""
