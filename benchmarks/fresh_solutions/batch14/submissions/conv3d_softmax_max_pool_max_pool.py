project_json_src='''
[
    {
        "op": "ChannelSoftmaxCubePoolCustom",
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
        ],
        "attr": [
            {
                "name": "window",
                "param_type": "required",
                "type": "int"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelSoftmaxCubePoolTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, win);          // effective cubic window (= stride) of the pooling chain
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);     // inW padded to 32B in UB
  TILING_DATA_FIELD_DEF(uint32_t, outPitch);     // outW padded to 32B in UB
  TILING_DATA_FIELD_DEF(uint32_t, tasks);        // batch * outD * outH
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelSoftmaxCubePoolCustom, ChannelSoftmaxCubePoolTilingData)
}
"""

host_operator_src="""
#include "channel_softmax_cube_pool_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint64_t UB_LIMIT = 176 * 1024;

static uint32_t AlignTo(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// Two stacked MaxPool3d(k) with stride k equal one pool with window k*k (floor semantics compose).
static uint32_t PooledExtent(uint32_t n, uint32_t k) { return (n / k) / k; }
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ChannelSoftmaxCubePoolTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    if (s.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    uint32_t k = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    uint32_t n = s.GetDim(0), c = s.GetDim(1), d = s.GetDim(2), h = s.GetDim(3), w = s.GetDim(4);
    uint32_t od = PooledExtent(d, k), oh = PooledExtent(h, k), ow = PooledExtent(w, k);
    uint32_t win = k * k;

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t ts = dt == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t rowPitch = AlignTo(w, 32 / ts);
    uint32_t outPitch = AlignTo(ow > 0 ? ow : 1, 32 / ts);

    // slab of one task: channels x win depths x win rows x rowPitch
    uint64_t slab = (uint64_t)c * win * win * rowPitch;
    uint64_t need = 2 * slab * ts + slab * 4 + 2ULL * rowPitch * win * win * 4 + 2ULL * c * outPitch * ts +
                    (uint64_t)c * outPitch * 4;
    if (need > UB_LIMIT) {
        return ge::GRAPH_FAILED;
    }

    uint32_t tasks = n * od * oh;
    auto ascendc = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = ascendc.GetCoreNumAiv();
    uint32_t per = (tasks + cores - 1) / cores;
    if (per == 0) {
        per = 1;
    }
    uint32_t used = (tasks + per - 1) / per;

    td.set_batch(n);
    td.set_channels(c);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_win(win);
    td.set_rowPitch(rowPitch);
    td.set_outPitch(outPitch);
    td.set_tasks(tasks);
    td.set_tasksPerCore(per);

    context->SetBlockDim(used == 0 ? 1 : used);
    context->SetTilingKey(ts == 2 ? 1 : 0);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    int64_t k = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    out->SetDimNum(5);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, in->GetDim(1));
    for (size_t i = 2; i < 5; ++i) {
        out->SetDim(i, (in->GetDim(i) / k) / k);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelSoftmaxCubePoolCustom : public OpDef {
public:
    explicit ChannelSoftmaxCubePoolCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("window").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelSoftmaxCubePoolCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <HardEvent E>
__aicore__ inline void Barrier()
{
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
    SetFlag<E>(ev);
    WaitFlag<E>(ev);
}

// Geometry of one task: output row (n, od, oh) -> input slab n, d in [od*win, +win), h in [oh*win, +win).
struct SlabGeom {
    uint32_t c, d, h, w, od, oh, ow, win, pitch, outPitch;
    uint32_t rowsPerCh;       // win * win rows of `pitch` per channel
    uint32_t chLen;           // rowsPerCh * pitch
};

template <typename T>
class ChannelSoftmaxCubePoolKernel {
public:
    __aicore__ inline ChannelSoftmaxCubePoolKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ChannelSoftmaxCubePoolTilingData& td)
    {
        g.c = td.channels; g.d = td.inD; g.h = td.inH; g.w = td.inW;
        g.od = td.outD; g.oh = td.outH; g.ow = td.outW;
        g.win = td.win; g.pitch = td.rowPitch; g.outPitch = td.outPitch;
        g.rowsPerCh = g.win * g.win;
        g.chLen = g.rowsPerCh * g.pitch;
        first = GetBlockIdx() * td.tasksPerCore;
        last = first + td.tasksPerCore;
        if (last > td.tasks) {
            last = td.tasks;
        }
        uint64_t inTotal = (uint64_t)td.batch * g.c * g.d * g.h * g.w;
        uint64_t outTotal = (uint64_t)td.batch * g.c * g.od * g.oh * g.ow;
        xGm.SetGlobalBuffer((__gm__ T*)x, inTotal);
        yGm.SetGlobalBuffer((__gm__ T*)y, outTotal);

        uint32_t slab = g.c * g.chLen;
        pipe.InitBuffer(inQ, BUFFER_NUM, slab * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, g.c * g.outPitch * sizeof(T));
        pipe.InitBuffer(probBuf, slab * sizeof(float));          // softmax probabilities, fp32
        pipe.InitBuffer(maxBuf, g.chLen * sizeof(float));        // running channel max, later the sum
        pipe.InitBuffer(treeBuf, g.chLen * sizeof(float));       // pooling tree scratch
        pipe.InitBuffer(poolBuf, g.c * g.outPitch * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = first; t < last; ++t) {
            uint32_t oh = t % g.oh;
            uint32_t od = (t / g.oh) % g.od;
            uint32_t n = t / (g.oh * g.od);
            CopyIn(n, od, oh);
            Softmax();
            Pool();
            CopyOut(n, od, oh);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<T> slab = inQ.AllocTensor<T>();
        // win consecutive h-rows of one depth plane are contiguous in GM; UB rows padded to pitch
        DataCopyExtParams cp{static_cast<uint16_t>(g.win), static_cast<uint32_t>(g.w * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        uint64_t plane = (uint64_t)g.h * g.w;
        for (uint32_t c = 0; c < g.c; ++c) {
            for (uint32_t dd = 0; dd < g.win; ++dd) {
                uint64_t src = (((uint64_t)n * g.c + c) * g.d + od * g.win + dd) * plane + (uint64_t)oh * g.win * g.w;
                DataCopyPad(slab[c * g.chLen + dd * g.win * g.pitch], xGm[src], cp, pad);
            }
        }
        inQ.EnQue(slab);
    }

    // softmax across channels, voxel-wise; every channel slice is an aligned vector of chLen
    __aicore__ inline void Softmax()
    {
        LocalTensor<T> slab = inQ.DeQue<T>();
        LocalTensor<float> p = probBuf.Get<float>();
        LocalTensor<float> m = maxBuf.Get<float>();
        uint32_t total = g.c * g.chLen;
        if constexpr (sizeof(T) == 2) {
            Cast(p, slab, RoundMode::CAST_NONE, total);
        } else {
            DataCopy(p, slab, total);
        }
        inQ.FreeTensor(slab);

        DataCopy(m, p, g.chLen);
        for (uint32_t c = 1; c < g.c; ++c) {
            Max(m, m, p[c * g.chLen], g.chLen);
        }
        for (uint32_t c = 0; c < g.c; ++c) {
            Sub(p[c * g.chLen], p[c * g.chLen], m, g.chLen);
        }
        Exp(p, p, total);
        DataCopy(m, p, g.chLen);
        for (uint32_t c = 1; c < g.c; ++c) {
            Add(m, m, p[c * g.chLen], g.chLen);
        }
        Reciprocal(m, m, g.chLen);
        for (uint32_t c = 0; c < g.c; ++c) {
            Mul(p[c * g.chLen], p[c * g.chLen], m, g.chLen);
        }
    }

    // max over the win*win rows by halving, then over groups of win columns on the scalar unit
    __aicore__ inline void Pool()
    {
        LocalTensor<float> p = probBuf.Get<float>();
        LocalTensor<float> tr = treeBuf.Get<float>();
        LocalTensor<float> pooled = poolBuf.Get<float>();
        for (uint32_t c = 0; c < g.c; ++c) {
            LocalTensor<float> src = p[c * g.chLen];
            uint32_t rows = g.rowsPerCh;
            DataCopy(tr, src, g.chLen);
            while (rows > 1) {
                uint32_t half = rows / 2;
                Max(tr, tr, tr[half * g.pitch], half * g.pitch);
                if (rows & 1) {
                    Max(tr, tr, tr[(rows - 1) * g.pitch], g.pitch);
                }
                rows = half;
            }
            Barrier<HardEvent::V_S>();
            for (uint32_t o = 0; o < g.ow; ++o) {
                float best = tr.GetValue(o * g.win);
                for (uint32_t k = 1; k < g.win; ++k) {
                    float v = tr.GetValue(o * g.win + k);
                    best = v > best ? v : best;
                }
                pooled.SetValue(c * g.outPitch + o, best);
            }
            Barrier<HardEvent::S_V>();
        }
        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (sizeof(T) == 2) {
            Cast(out, pooled, RoundMode::CAST_ROUND, g.c * g.outPitch);
        } else {
            DataCopy(out, pooled, g.c * g.outPitch);
        }
        outQ.EnQue(out);
    }

    __aicore__ inline void CopyOut(uint32_t n, uint32_t od, uint32_t oh)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        uint64_t cStride = (uint64_t)g.od * g.oh * g.ow;
        uint64_t dst = (uint64_t)n * g.c * cStride + ((uint64_t)od * g.oh + oh) * g.ow;
        // one output row per channel, channels strided by od*oh*ow in GM
        DataCopyExtParams cp{static_cast<uint16_t>(g.c), static_cast<uint32_t>(g.ow * sizeof(T)), 0,
                             static_cast<uint32_t>((cStride - g.ow) * sizeof(T)), 0};
        DataCopyPad(yGm[dst], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> probBuf, maxBuf, treeBuf, poolBuf;
    GlobalTensor<T> xGm, yGm;
    SlabGeom g;
    uint32_t first = 0, last = 0;
};

extern "C" __global__ __aicore__ void channel_softmax_cube_pool_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        ChannelSoftmaxCubePoolKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        ChannelSoftmaxCubePoolKernel<half> op;
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

at::Tensor channel_softmax_cube_pool_npu(const at::Tensor& x, int64_t pool_kernel)
{
    TORCH_CHECK(x.dim() == 5, "expected NCDHW input");
    at::Tensor xc = x.contiguous();
    auto ext = [&](int64_t v) { return (v / pool_kernel) / pool_kernel; };
    at::Tensor y = at::empty({x.size(0), x.size(1), ext(x.size(2)), ext(x.size(3)), ext(x.size(4))}, x.options());
    EXEC_NPU_CMD(aclnnChannelSoftmaxCubePoolCustom, xc, pool_kernel, y);
    return y;
}

// Conv3d (ATen) -> fused channel softmax + two MaxPool3d(k).
at::Tensor conv3d_softmax_double_pool_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                          int64_t pool_kernel)
{
    at::Tensor c = at::conv3d(x, weight, bias);
    return channel_softmax_cube_pool_npu(c, pool_kernel);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_softmax_cube_pool_custom", &channel_softmax_cube_pool_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_softmax_cube_pool_custom", &channel_softmax_cube_pool_npu, "softmax(dim=1) + 2x maxpool3d");
    m.def("conv3d_softmax_double_pool", &conv3d_softmax_double_pool_npu, "conv3d + softmax + 2x maxpool3d");
}
"""
