project_json_src='''
[
    {
        "op": "VolumeWindowMeanCustom",
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
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeWindowMeanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);     // output rows (planes*outD*outH) per core
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemainder);
  TILING_DATA_FIELD_DEF(float, invVolume);           // count_include_pad: 1 / k^3
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumeWindowMeanCustom, VolumeWindowMeanTilingData)
}
"""

host_operator_src="""
#include "volume_window_mean_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
struct PoolGeom {
    int64_t k, s, p;
    int64_t OutLen(int64_t in) const { return (in + 2 * p - k) / s + 1; }
};
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    VolumeWindowMeanTilingData tiling;
    const auto& sh = context->GetInputShape(0)->GetStorageShape();
    if (sh.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    PoolGeom g{*attrs->GetAttrPointer<int64_t>(0), *attrs->GetAttrPointer<int64_t>(1),
               *attrs->GetAttrPointer<int64_t>(2)};
    if (g.s <= 0) {
        g.s = g.k;
    }
    // horizontal taps are built from padded DMA copies; padding must stay within one 32B block
    if (g.k <= 0 || g.p < 0 || 2 * g.p > g.k || g.k > 8) {
        return ge::GRAPH_FAILED;
    }

    uint32_t planes = static_cast<uint32_t>(sh.GetDim(0) * sh.GetDim(1));
    int64_t d = sh.GetDim(2), h = sh.GetDim(3), w = sh.GetDim(4);
    uint32_t od = static_cast<uint32_t>(g.OutLen(d));
    uint32_t oh = static_cast<uint32_t>(g.OutLen(h));
    uint32_t ow = static_cast<uint32_t>(g.OutLen(w));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t outRows = planes * od * oh;
    if (cores > outRows) cores = outRows;
    if (cores == 0) cores = 1;

    tiling.set_planes(planes);
    tiling.set_inD(static_cast<uint32_t>(d));
    tiling.set_inH(static_cast<uint32_t>(h));
    tiling.set_inW(static_cast<uint32_t>(w));
    tiling.set_outD(od);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_kernel(static_cast<uint32_t>(g.k));
    tiling.set_stride(static_cast<uint32_t>(g.s));
    tiling.set_pad(static_cast<uint32_t>(g.p));
    tiling.set_rowsPerCore(outRows / cores);
    tiling.set_rowsRemainder(outRows % cores);
    tiling.set_invVolume(1.0f / static_cast<float>(g.k * g.k * g.k));

    context->SetBlockDim(cores);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    if (s <= 0) s = k;
    *out = *in;
    for (size_t i = 2; i < 5; ++i) {
        out->SetDim(i, (in->GetDim(i) + 2 * p - k) / s + 1);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class VolumeWindowMeanCustom : public OpDef {
public:
    explicit VolumeWindowMeanCustom(const char* name) : OpDef(name)
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
        this->Attr("kernel_size").Int();
        this->Attr("stride").Int();
        this->Attr("padding").Int();
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(VolumeWindowMeanCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct MeanPoolCfg {
    uint32_t planes, inD, inH, inW, outD, outH, outW, kernel, stride, pad, rowsPerCore, rowsRemainder;
    float invVolume;
};

template <typename T>
__aicore__ inline uint32_t Pitch(uint32_t n)
{
    constexpr uint32_t a = 32 / sizeof(T);
    return (n + a - 1) / a * a;
}

// Valid input window [lo, hi) along one axis for output index o.
__aicore__ inline void AxisWindow(uint32_t o, uint32_t k, uint32_t s, uint32_t p, uint32_t len,
                                  uint32_t& lo, uint32_t& hi)
{
    int32_t start = static_cast<int32_t>(o * s) - static_cast<int32_t>(p);
    int32_t end = start + static_cast<int32_t>(k);
    lo = start < 0 ? 0 : static_cast<uint32_t>(start);
    hi = end > static_cast<int32_t>(len) ? len : static_cast<uint32_t>(end);
}

// Pairwise add of `rows` contiguous rows into row 0.
template <typename T>
__aicore__ inline void FoldRowsSum(const LocalTensor<T>& buf, uint32_t rows, uint32_t pitch)
{
    while (rows > 1) {
        uint32_t half = rows / 2;
        uint32_t keep = rows - half;
        Add(buf, buf, buf[keep * pitch], half * pitch);
        PipeBarrier<PIPE_V>();
        rows = keep;
    }
}

// avg_pool3d (count_include_pad=True, ceil_mode=False).
// Depth/height taps are summed as whole rows; the strided width taps are pulled out of the row
// sum with Gather using a precomputed byte-offset table, out-of-range taps point at a zero slot.
template <typename T>
class VolumeWindowMean {
public:
    __aicore__ inline VolumeWindowMean() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MeanPoolCfg& c)
    {
        cfg = c;
        inPitch = Pitch<T>(c.inW);
        outPitch = Pitch<T>(c.outW);
        uint32_t idx = GetBlockIdx();
        rowCount = c.rowsPerCore + (idx < c.rowsRemainder ? 1 : 0);
        rowStart = idx * c.rowsPerCore + (idx < c.rowsRemainder ? idx : c.rowsRemainder);

        xGm.SetGlobalBuffer((__gm__ T*)x, (uint64_t)c.planes * c.inD * c.inH * c.inW);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)c.planes * c.outD * c.outH * c.outW);

        pipe.InitBuffer(inQ, BUFFER_NUM, c.kernel * c.kernel * inPitch * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, outPitch * sizeof(T));
        // row sum plus one zeroed 32B block used as the padding tap
        pipe.InitBuffer(sumBuf, (inPitch + 32 / sizeof(T)) * sizeof(T));
        pipe.InitBuffer(tapBuf, c.kernel * outPitch * sizeof(T));
        pipe.InitBuffer(offsetBuf, c.kernel * outPitch * sizeof(uint32_t));
        BuildTapOffsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < rowCount; ++i) {
            uint32_t r = rowStart + i;
            uint32_t oh = r % cfg.outH;
            uint32_t od = (r / cfg.outH) % cfg.outD;
            uint32_t plane = r / (cfg.outH * cfg.outD);
            uint32_t rows = LoadWindow(plane, od, oh);
            Reduce(rows);
            Store(r);
        }
    }

private:
    __aicore__ inline void BuildTapOffsets()
    {
        LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        LocalTensor<T> sum = sumBuf.Get<T>();
        Duplicate(sum, static_cast<T>(0), inPitch + 32 / sizeof(T));
        uint32_t zeroSlot = inPitch * sizeof(T);
        for (uint32_t j = 0; j < cfg.kernel; ++j) {
            for (uint32_t o = 0; o < outPitch; ++o) {
                int32_t pos = static_cast<int32_t>(o * cfg.stride + j) - static_cast<int32_t>(cfg.pad);
                uint32_t v = (o >= cfg.outW || pos < 0 || pos >= static_cast<int32_t>(cfg.inW))
                                 ? zeroSlot : static_cast<uint32_t>(pos) * sizeof(T);
                off.SetValue(j * outPitch + o, v);
            }
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
    }

    __aicore__ inline uint32_t LoadWindow(uint32_t plane, uint32_t od, uint32_t oh)
    {
        uint32_t d0, d1, h0, h1;
        AxisWindow(od, cfg.kernel, cfg.stride, cfg.pad, cfg.inD, d0, d1);
        AxisWindow(oh, cfg.kernel, cfg.stride, cfg.pad, cfg.inH, h0, h1);
        uint32_t nh = h1 - h0;
        LocalTensor<T> win = inQ.AllocTensor<T>();
        // zero-fill the row tail so the padded lanes do not disturb the sum
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(inPitch - cfg.inW), static_cast<T>(0)};
        DataCopyExtParams cp{static_cast<uint16_t>(nh), static_cast<uint32_t>(cfg.inW * sizeof(T)), 0, 0, 0};
        uint32_t rows = 0;
        for (uint32_t d = d0; d < d1; ++d) {
            uint64_t src = (((uint64_t)plane * cfg.inD + d) * cfg.inH + h0) * cfg.inW;
            DataCopyPad(win[rows * inPitch], xGm[src], cp, pad);
            rows += nh;
        }
        inQ.EnQue(win);
        return rows;
    }

    __aicore__ inline void Reduce(uint32_t rows)
    {
        LocalTensor<T> win = inQ.DeQue<T>();
        LocalTensor<T> out = outQ.AllocTensor<T>();
        LocalTensor<T> sum = sumBuf.Get<T>();
        LocalTensor<T> taps = tapBuf.Get<T>();
        LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();

        FoldRowsSum(win, rows, inPitch);
        DataCopy(sum, win, inPitch);
        PipeBarrier<PIPE_V>();
        for (uint32_t j = 0; j < cfg.kernel; ++j) {
            Gather(taps[j * outPitch], sum, off[j * outPitch], 0U, outPitch);
        }
        PipeBarrier<PIPE_V>();
        FoldRowsSum(taps, cfg.kernel, outPitch);
        Muls(out, taps, static_cast<T>(cfg.invVolume), outPitch);

        outQ.EnQue(out);
        inQ.FreeTensor(win);
    }

    __aicore__ inline void Store(uint32_t r)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cfg.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)r * cfg.outW], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> sumBuf, tapBuf, offsetBuf;
    GlobalTensor<T> xGm, yGm;
    MeanPoolCfg cfg;
    uint32_t inPitch = 0, outPitch = 0, rowCount = 0, rowStart = 0;
};

extern "C" __global__ __aicore__ void volume_window_mean_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    MeanPoolCfg c{td.planes, td.inD, td.inH, td.inW, td.outD, td.outH, td.outW, td.kernel, td.stride, td.pad,
                  td.rowsPerCore, td.rowsRemainder, td.invVolume};
    if (TILING_KEY_IS(1)) {
        VolumeWindowMean<half> op;
        op.Init(x, y, c);
        op.Process();
    } else {
        VolumeWindowMean<float> op;
        op.Init(x, y, c);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor volume_window_mean_npu(const at::Tensor& x, int64_t kernel_size, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 5, "expected NCDHW input");
    if (stride <= 0) {
        stride = kernel_size;
    }
    at::Tensor xc = x.contiguous();
    auto outLen = [&](int64_t n) { return (n + 2 * padding - kernel_size) / stride + 1; };
    at::Tensor y = at::empty({xc.size(0), xc.size(1), outLen(xc.size(2)), outLen(xc.size(3)), outLen(xc.size(4))},
                             xc.options());
    EXEC_NPU_CMD(aclnnVolumeWindowMeanCustom, xc, kernel_size, stride, padding, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("volume_window_mean_custom", &volume_window_mean_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("volume_window_mean_custom", &volume_window_mean_npu, "avg_pool3d, count_include_pad=True",
          pybind11::arg("x"), pybind11::arg("kernel_size"), pybind11::arg("stride") = 0, pybind11::arg("padding") = 0);
}
"""
