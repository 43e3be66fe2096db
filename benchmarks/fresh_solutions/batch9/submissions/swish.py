project_json_src='''
[
    {
        "op": "SelfGatedSigmoidCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SelfGatedSigmoidTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // elements per core, multiple of the 32B element count
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);   // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SelfGatedSigmoidCustom, SelfGatedSigmoidTilingData)
}
"""

host_operator_src="""
#include "self_gated_sigmoid_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;

struct SplitPlan {
    uint64_t perCore;
    uint32_t used;
    uint32_t tile;
};

// in/out queues double buffered in T, plus one fp32 scratch of the tile
SplitPlan PlanSplit(uint64_t total, uint32_t typeSize, uint32_t coreNum, uint64_t ubBytes)
{
    SplitPlan sp;
    uint32_t alignElems = BLOCK_BYTES / typeSize;
    uint64_t per = (total + coreNum - 1) / coreNum;
    per = (per + alignElems - 1) / alignElems * alignElems;
    sp.perCore = per;
    sp.used = static_cast<uint32_t>((total + per - 1) / per);

    uint64_t perElem = BUFFER_NUM * 2 * typeSize + 2 * sizeof(float);
    uint64_t tile = (ubBytes - 16 * 1024) / perElem;
    tile = tile / 256 * 256;
    if (tile > per) {
        tile = per;
    }
    sp.tile = static_cast<uint32_t>(tile);
    return sp;
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    uint64_t total = static_cast<uint64_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dt == ge::DT_FLOAT16) ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    SplitPlan sp = PlanSplit(total, typeSize, plat.GetCoreNumAiv(), ub);
    if (sp.used == 0) {
        sp.used = 1;
    }

    SelfGatedSigmoidTilingData td;
    td.set_totalLength(total);
    td.set_perCore(sp.perCore);
    td.set_tileLength(sp.tile);
    td.set_usedCores(sp.used);

    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(sp.used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
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
class SelfGatedSigmoidCustom : public OpDef {
public:
    explicit SelfGatedSigmoidCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SelfGatedSigmoidCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = x / (1 + exp(-x)), evaluated in fp32
struct GateMath {
    __aicore__ static inline void Run(const LocalTensor<float> &x, const LocalTensor<float> &t, uint32_t n)
    {
        Muls(t, x, -1.0f, n);
        PipeBarrier<PIPE_V>();
        Exp(t, t, n);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, n);
        PipeBarrier<PIPE_V>();
        Div(x, x, t, n);
        PipeBarrier<PIPE_V>();
    }
};

template <typename T>
class SelfGatedSigmoid {
public:
    __aicore__ inline SelfGatedSigmoid() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SelfGatedSigmoidTilingData &td)
    {
        uint64_t start = td.perCore * GetBlockIdx();
        uint64_t remain = td.totalLength > start ? td.totalLength - start : 0;
        myLen = remain < td.perCore ? remain : td.perCore;
        tileLen = td.tileLength;

        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + start, myLen);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + start, myLen);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(T));
        // x in fp32 and the denominator
        pipe.InitBuffer(fBuf, tileLen * sizeof(float));
        pipe.InitBuffer(dBuf, tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myLen == 0 || tileLen == 0) {
            return;
        }
        uint64_t tiles = (myLen + tileLen - 1) / tileLen;
        for (uint64_t i = 0; i < tiles; ++i) {
            uint64_t off = i * tileLen;
            uint32_t n = static_cast<uint32_t>((myLen - off) < tileLen ? (myLen - off) : tileLen);
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t n)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        LocalTensor<float> d = dBuf.Get<float>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(yl, xl, (n + 7) / 8 * 8);
            PipeBarrier<PIPE_V>();
            GateMath::Run(yl, d, n);
        } else {
            LocalTensor<float> f = fBuf.Get<float>();
            Cast(f, xl, RoundMode::CAST_NONE, n);
            PipeBarrier<PIPE_V>();
            GateMath::Run(f, d, n);
            Cast(yl, f, RoundMode::CAST_ROUND, n);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t n)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> fBuf, dBuf;
    GlobalTensor<T> xGm, yGm;
    uint64_t myLen;
    uint32_t tileLen;
};

extern "C" __global__ __aicore__ void self_gated_sigmoid_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        SelfGatedSigmoid<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        SelfGatedSigmoid<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x * sigmoid(x)
at::Tensor self_gated_sigmoid_impl_npu(const at::Tensor &x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnSelfGatedSigmoidCustom, xc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("self_gated_sigmoid_custom", &self_gated_sigmoid_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("self_gated_sigmoid_custom", &self_gated_sigmoid_impl_npu, "x * sigmoid(x)");
}
"""
