project_json_src='''
[
    {
        "op": "PlanarKernelConv3dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
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
BEGIN_TILING_DATA_DEF(PlanarKernelConv3dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, depth);     // last axis, kernel extent 1 along it
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, segLen);    // elements of one flattened (outW*depth) output row per pass
  TILING_DATA_FIELD_DEF(uint32_t, segsPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlanarKernelConv3dCustom, PlanarKernelConv3dTilingData)
}
"""

host_operator_src="""
#include "planar_kernel_conv3d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
struct ConvGeometry {
    uint32_t n, ci, co, h, w, d, kh, kw, oh, ow;
};

// Segment length along the flattened (ow, d) axis. Per element of the segment UB holds:
// taps input slices (double buffered, plus an fp32 copy for half), two output buffers, one fp32 accumulator.
uint32_t PickSegment(const ConvGeometry& g, uint32_t esz, uint64_t ub)
{
    uint32_t taps = g.ci * g.kh * g.kw;
    uint64_t perElem = (uint64_t)taps * (2 * esz + (esz == 2 ? 4 : 0)) + 2 * esz + 4;
    uint64_t budget = ub - 16 * 1024 - (uint64_t)g.co * taps * 4;   // weights stay resident as fp32
    uint64_t len = budget / perElem;
    len = len / 64 * 64;
    uint64_t row = (uint64_t)g.ow * g.d;
    uint64_t rowAligned = (row + 63) / 64 * 64;
    if (len > rowAligned) {
        len = rowAligned;
    }
    return static_cast<uint32_t>(len);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();   // N, Ci, H, W, D
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();   // Co, Ci, KH, KW, 1
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || ws.GetDim(4) != 1 || ws.GetDim(1) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;
    }
    ConvGeometry g;
    g.n = xs.GetDim(0); g.ci = xs.GetDim(1); g.h = xs.GetDim(2); g.w = xs.GetDim(3); g.d = xs.GetDim(4);
    g.co = ws.GetDim(0); g.kh = ws.GetDim(2); g.kw = ws.GetDim(3);
    g.oh = g.h - g.kh + 1;
    g.ow = g.w - g.kw + 1;

    auto dt = context->GetInputDesc(0)->GetDataType();
    uint32_t esz = dt == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t seg = PickSegment(g, esz, ub);
    if (seg < 64) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rowLen = g.ow * g.d;
    uint32_t segs = (rowLen + seg - 1) / seg;

    PlanarKernelConv3dTilingData td;
    td.set_batch(g.n); td.set_cin(g.ci); td.set_cout(g.co);
    td.set_inH(g.h); td.set_inW(g.w); td.set_depth(g.d);
    td.set_kH(g.kh); td.set_kW(g.kw);
    td.set_outH(g.oh); td.set_outW(g.ow);
    td.set_segLen(seg);
    td.set_segsPerRow(segs);
    uint32_t units = g.n * g.oh * segs;
    td.set_totalUnits(units);

    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(units < cores ? units : cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    y->SetDim(4, x->GetDim(4));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PlanarKernelConv3dCustom : public OpDef {
public:
    explicit PlanarKernelConv3dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(PlanarKernelConv3dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Valid conv (stride 1, no padding) with kernel (KH, KW, 1) on [N, C, H, W, D].
// With a unit kernel along D, one output row y[n, co, oh, :, :] flattened to (ow*D + d) equals
//   sum_{ci,kh,kw} w[co,ci,kh,kw] * x[n, ci, oh+kh, :, :] flattened, shifted by kw*D.
// Each tap is therefore a contiguous slice in GM; the shift is applied by the DMA, not in UB.
template <typename T>
class PlanarKernelConv3dKernel {
public:
    __aicore__ inline PlanarKernelConv3dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const PlanarKernelConv3dTilingData& td)
    {
        N = td.batch; Ci = td.cin; Co = td.cout;
        H = td.inH; W = td.inW; D = td.depth;
        KH = td.kH; KW = td.kW; OH = td.outH; OW = td.outW;
        seg = td.segLen; segsPerRow = td.segsPerRow; units = td.totalUnits;
        taps = Ci * KH * KW;
        rowLen = OW * D;

        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)N * Ci * H * W * D);
        wGm.SetGlobalBuffer((__gm__ T*)w, (uint64_t)Co * taps);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)N * Co * OH * rowLen);

        pipe.InitBuffer(tapQ, BUFFER_NUM, taps * seg * sizeof(T));   // one slice per tap, seg elements each
        pipe.InitBuffer(outQ, BUFFER_NUM, seg * sizeof(T));
        pipe.InitBuffer(accBuf, seg * sizeof(float));
        // fp32 weights; for half a staging area of the same element count follows them
        uint32_t wAligned = (Co * taps + 63) / 64 * 64;
        pipe.InitBuffer(wBuf, wAligned * (sizeof(float) + (IsSameType<T, float>::value ? 0 : sizeof(half))));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(tapF32Buf, taps * seg * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        LoadWeights();
        for (uint32_t u = GetBlockIdx(); u < units; u += GetBlockNum()) {
            uint32_t s = u % segsPerRow;
            uint32_t row = u / segsPerRow;         // = n * OH + oh
            uint32_t oh = row % OH;
            uint32_t n = row / OH;
            uint32_t s0 = s * seg;
            uint32_t len = (rowLen - s0) < seg ? (rowLen - s0) : seg;
            LoadTaps(n, oh, s0, len);
            ComputeChannels(n, oh, s0, len);
        }
    }

private:
    __aicore__ inline void LoadWeights()
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        uint32_t cnt = Co * taps;
        if constexpr (IsSameType<T, float>::value) {
            DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
            DataCopyPad(wl, wGm, cp, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        } else {
            // stage the fp16 weights behind the fp32 region, then widen
            LocalTensor<half> stage = wl.template ReinterpretCast<half>()[(Co * taps + 63) / 64 * 64 * 2];
            DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(half)), 0, 0, 0};
            DataCopyPad(stage, wGm, cp, DataCopyPadExtParams<half>{false, 0, 0, half(0)});
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            Cast(wl, stage, RoundMode::CAST_NONE, cnt);
            PipeBarrier<PIPE_V>();
        }
        // weights are read by the scalar unit below
        SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
    }

    __aicore__ inline void LoadTaps(uint32_t n, uint32_t oh, uint32_t s0, uint32_t len)
    {
        LocalTensor<T> tl = tapQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        uint32_t t = 0;
        for (uint32_t ci = 0; ci < Ci; ++ci) {
            for (uint32_t kh = 0; kh < KH; ++kh) {
                uint64_t rowBase = ((((uint64_t)n * Ci + ci) * H) + oh + kh) * W * D;
                for (uint32_t kw = 0; kw < KW; ++kw, ++t) {
                    DataCopyPad(tl[t * seg], xGm[rowBase + (uint64_t)kw * D + s0], cp, pad);
                }
            }
        }
        tapQ.EnQue(tl);
    }

    __aicore__ inline void ComputeChannels(uint32_t n, uint32_t oh, uint32_t s0, uint32_t len)
    {
        LocalTensor<T> tl = tapQ.DeQue<T>();
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> src;
        uint32_t cnt = (len + 63) / 64 * 64;
        if constexpr (IsSameType<T, float>::value) {
            src = tl;
        } else {
            src = tapF32Buf.Get<float>();
            Cast(src, tl, RoundMode::CAST_NONE, taps * seg);
            PipeBarrier<PIPE_V>();
        }

        for (uint32_t co = 0; co < Co; ++co) {
            LocalTensor<T> ol = outQ.AllocTensor<T>();
            LocalTensor<float> acc;
            if constexpr (IsSameType<T, float>::value) {
                acc = ol;
            } else {
                acc = accBuf.Get<float>();
            }
            uint32_t wBase = co * taps;
            Muls(acc, src, wl.GetValue(wBase), cnt);
            for (uint32_t t = 1; t < taps; ++t) {
                PipeBarrier<PIPE_V>();
                Axpy(acc, src[t * seg], wl.GetValue(wBase + t), cnt);
            }
            if constexpr (!IsSameType<T, float>::value) {
                PipeBarrier<PIPE_V>();
                Cast(ol, acc, RoundMode::CAST_ROUND, cnt);
            }
            outQ.EnQue(ol);

            LocalTensor<T> done = outQ.DeQue<T>();
            uint64_t dst = (((uint64_t)n * Co + co) * OH + oh) * rowLen + s0;
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[dst], done, cp);
            outQ.FreeTensor(done);
        }
        tapQ.FreeTensor(tl);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> tapQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> accBuf, wBuf, tapF32Buf;
    GlobalTensor<T> xGm, wGm, yGm;
    uint32_t N, Ci, Co, H, W, D, KH, KW, OH, OW;
    uint32_t seg, segsPerRow, units, taps, rowLen;
};

extern "C" __global__ __aicore__ void planar_kernel_conv3d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PlanarKernelConv3dKernel<float> op;
        op.Init(x, weight, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        PlanarKernelConv3dKernel<half> op;
        op.Init(x, weight, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv3d with kernel (k, k, 1), stride 1, no padding, no bias; x is [N, C, H, W, D]
at::Tensor planar_kernel_conv3d_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    TORCH_CHECK(weight.size(4) == 1, "kernel extent along the last axis must be 1");
    TORCH_CHECK(weight.size(1) == x.size(1), "channel mismatch (groups are not supported)");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.to(x.scalar_type()).contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0), x.size(2) - weight.size(2) + 1,
                              x.size(3) - weight.size(3) + 1, x.size(4)}, x.options());
    EXEC_NPU_CMD(aclnnPlanarKernelConv3dCustom, xc, wc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("planar_kernel_conv3d_custom", &planar_kernel_conv3d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("planar_kernel_conv3d_custom", &planar_kernel_conv3d_impl_npu, "conv3d with (k,k,1) kernel");
}
"""
