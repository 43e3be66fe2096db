project_json_src='''
[
    {
        "op": "GeluSpatialMeanCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GeluSpatialMeanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, planeLen);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, flushEvery);
  TILING_DATA_FIELD_DEF(float, invPlaneLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GeluSpatialMeanCustom, GeluSpatialMeanTilingData)
}
"""

host_operator_src="""
#include "gelu_spatial_mean_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_CHUNK = 6144;
constexpr uint32_t FLUSH_EVERY = 64;   // plane means buffered before one contiguous store

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() < 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t planes = xs.GetDim(0) * xs.GetDim(1);
    uint32_t planeLen = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        planeLen *= xs.GetDim(i);
    }
    uint32_t chunk = (planeLen + 63) / 64 * 64;
    if (chunk > MAX_CHUNK) {
        chunk = MAX_CHUNK;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (planes + cores - 1) / cores;

    GeluSpatialMeanTilingData td;
    td.set_planes(planes);
    td.set_planeLen(planeLen);
    td.set_chunk(chunk);
    td.set_planesPerCore(perCore);
    td.set_flushEvery(FLUSH_EVERY);
    td.set_invPlaneLen(1.0f / static_cast<float>(planeLen));

    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim((planes + perCore - 1) / perCore);
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
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(2);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GeluSpatialMeanCustom : public OpDef {
public:
    explicit GeluSpatialMeanCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(GeluSpatialMeanCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// tanh-form GELU: x * 0.5 * (1 + tanh(a)), a = sqrt(2/pi) * (x + 0.044715 x^3),
// evaluated as x / (1 + exp(-2a)).
struct GeluOp {
    __aicore__ static inline void Run(const LocalTensor<float>& x, const LocalTensor<float>& t, uint32_t n)
    {
        Mul(t, x, x, n);
        PipeBarrier<PIPE_V>();
        Muls(t, t, 0.044715f, n);
        PipeBarrier<PIPE_V>();
        Adds(t, t, 1.0f, n);
        PipeBarrier<PIPE_V>();
        Mul(t, t, x, n);
        PipeBarrier<PIPE_V>();
        Muls(t, t, -1.5957691216057308f, n);
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
class GeluSpatialMean {
public:
    __aicore__ inline GeluSpatialMean() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t planes, uint32_t planeLen, uint32_t chunk,
                                uint32_t planesPerCore, uint32_t flushEvery, float invPlaneLen)
    {
        this->planeLen = planeLen;
        this->chunk = chunk;
        this->flushEvery = flushEvery;
        this->invLen = invPlaneLen;
        firstPlane = GetBlockIdx() * planesPerCore;
        myPlanes = planes - firstPlane < planesPerCore ? planes - firstPlane : planesPerCore;

        xGm.SetGlobalBuffer((__gm__ T*)x + (uint64_t)firstPlane * planeLen, (uint64_t)myPlanes * planeLen);
        yGm.SetGlobalBuffer((__gm__ T*)y + firstPlane, myPlanes);

        pipe.InitBuffer(inQue, BUFFER_NUM, chunk * sizeof(T));
        pipe.InitBuffer(outQue, 1, flushEvery * sizeof(T));
        pipe.InitBuffer(valBuf, chunk * sizeof(float));
        pipe.InitBuffer(tmpBuf, chunk * sizeof(float));
        pipe.InitBuffer(laneBuf, chunk * sizeof(float));
        pipe.InitBuffer(meanBuf, flushEvery * sizeof(float));
        pipe.InitBuffer(redBuf, 32);
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> means = meanBuf.Get<float>();
        uint32_t pending = 0;
        uint32_t flushedUpTo = 0;
        for (uint32_t p = 0; p < myPlanes; ++p) {
            float m = PlaneMean(p);
            means.SetValue(pending, m);
            ++pending;
            if (pending == flushEvery || p + 1 == myPlanes) {
                Flush(flushedUpTo, pending);
                flushedUpTo += pending;
                pending = 0;
            }
        }
    }

private:
    __aicore__ inline float PlaneMean(uint32_t p)
    {
        LocalTensor<float> lanes = laneBuf.Get<float>();
        LocalTensor<float> v = valBuf.Get<float>();
        LocalTensor<float> t = tmpBuf.Get<float>();
        Duplicate(lanes, 0.0f, chunk);
        PipeBarrier<PIPE_V>();
        uint64_t base = (uint64_t)p * planeLen;
        for (uint32_t off = 0; off < planeLen; off += chunk) {
            uint32_t len = planeLen - off < chunk ? planeLen - off : chunk;
            LocalTensor<T> xs = inQue.AllocTensor<T>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> np{false, 0, 0, 0};
            DataCopyPad(xs, xGm[base + off], cp, np);
            inQue.EnQue(xs);
            xs = inQue.DeQue<T>();
            if constexpr (IsSameType<T, float>::value) {
                DataCopy(v, xs, chunk);
            } else {
                Cast(v, xs, RoundMode::CAST_NONE, chunk);
            }
            inQue.FreeTensor(xs);
            PipeBarrier<PIPE_V>();
            GeluOp::Run(v, t, len);
            Add(lanes, lanes, v, len);
            PipeBarrier<PIPE_V>();
        }
        LocalTensor<float> red = redBuf.Get<float>();
        ReduceSum<float>(red, lanes, t, chunk);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
        return red.GetValue(0) * invLen;
    }

    __aicore__ inline void Flush(uint32_t dstOff, uint32_t cnt)
    {
        LocalTensor<float> means = meanBuf.Get<float>();
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
        LocalTensor<T> ys = outQue.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(ys, means, flushEvery);
        } else {
            Cast(ys, means, RoundMode::CAST_ROUND, flushEvery);
        }
        outQue.EnQue(ys);
        ys = outQue.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[dstOff], ys, cp);
        outQue.FreeTensor(ys);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    TBuf<TPosition::VECCALC> valBuf, tmpBuf, laneBuf, meanBuf, redBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t planeLen, chunk, flushEvery, firstPlane, myPlanes;
    float invLen;
};

extern "C" __global__ __aicore__ void gelu_spatial_mean_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        GeluSpatialMean<half> op;
        op.Init(x, y, td.planes, td.planeLen, td.chunk, td.planesPerCore, td.flushEvery, td.invPlaneLen);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        GeluSpatialMean<float> op;
        op.Init(x, y, td.planes, td.planeLen, td.chunk, td.planesPerCore, td.flushEvery, td.invPlaneLen);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// (N, C, H, W) -> (N, C): mean over H*W of gelu(x)
at::Tensor gelu_spatial_mean_impl_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty({x.size(0), x.size(1)}, x.options());
    EXEC_NPU_CMD(aclnnGeluSpatialMeanCustom, xc, y);
    return y;
}

at::Tensor conv_gelu_spatial_mean_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    return gelu_spatial_mean_impl_npu(at::conv2d(x, weight, bias));
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gelu_spatial_mean_custom", &gelu_spatial_mean_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gelu_spatial_mean_custom", &gelu_spatial_mean_impl_npu, "gelu followed by global average pooling");
    m.def("conv_gelu_spatial_mean", &conv_gelu_spatial_mean_impl_npu, "conv2d + gelu + global average pooling");
}
"""
