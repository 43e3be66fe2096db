project_json_src='''
[
    {
        "op": "WindowMeanPool2dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WindowMeanPool2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, wAligned);      // input row length rounded to 8 elements (+ zero slot)
  TILING_DATA_FIELD_DEF(uint32_t, outWAligned);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);     // N * C * outH output rows
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
  TILING_DATA_FIELD_DEF(float, invArea);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(WindowMeanPool2dCustom, WindowMeanPool2dTilingData)
}
"""

host_operator_src="""
#include "window_mean_pool2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct PoolGeom {
    uint32_t k, s, p, oh, ow;
};

PoolGeom ResolveGeom(const gert::RuntimeAttrs* attrs, uint32_t h, uint32_t w)
{
    PoolGeom g;
    g.k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    const int64_t* sp = attrs->GetAttrPointer<int64_t>(1);
    const int64_t* pp = attrs->GetAttrPointer<int64_t>(2);
    g.s = (sp == nullptr || *sp <= 0) ? g.k : static_cast<uint32_t>(*sp);
    g.p = (pp == nullptr) ? 0 : static_cast<uint32_t>(*pp);
    g.oh = (h + 2 * g.p - g.k) / g.s + 1;
    g.ow = (w + 2 * g.p - g.k) / g.s + 1;
    return g;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    WindowMeanPool2dTilingData td;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();

    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t h = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t w = static_cast<uint32_t>(xs.GetDim(3));
    PoolGeom g = ResolveGeom(context->GetAttrs(), h, w);

    uint32_t totalRows = n * c * g.oh;
    uint32_t used = totalRows < cores ? totalRows : cores;
    if (used == 0) {
        used = 1;
    }
    // one extra 8-element block after the row holds zeros: padded taps gather from there
    uint32_t wAligned = AlignUp(w, 16) + 16;

    td.set_inH(h);
    td.set_inW(w);
    td.set_outH(g.oh);
    td.set_outW(g.ow);
    td.set_wAligned(wAligned);
    td.set_outWAligned(AlignUp(g.ow, 16));
    td.set_kernel(g.k);
    td.set_stride(g.s);
    td.set_pad(g.p);
    td.set_totalRows(totalRows);
    td.set_rowsPerCore(totalRows / used);
    td.set_rowsTail(totalRows % used);
    td.set_invArea(1.0f / static_cast<float>(g.k * g.k));   // count_include_pad=True

    context->SetBlockDim(used);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 1);
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
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t* sp = attrs->GetAttrPointer<int64_t>(1);
    const int64_t* pp = attrs->GetAttrPointer<int64_t>(2);
    int64_t s = (sp == nullptr || *sp <= 0) ? k : *sp;
    int64_t p = (pp == nullptr) ? 0 : *pp;
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(2, (xs->GetDim(2) + 2 * p - k) / s + 1);
    ys->SetDim(3, (xs->GetDim(3) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class WindowMeanPool2dCustom : public OpDef {
public:
    explicit WindowMeanPool2dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("kernel_size").Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(0);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(WindowMeanPool2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Byte-offset tables for Gather: table[kw][ow] points at column ow*stride + kw - pad of the
// column-sum row, or at the zero slot (index zeroIdx) when that column lies in the padding.
__aicore__ inline void BuildTapTables(const LocalTensor<uint32_t>& tbl, uint32_t k, uint32_t ow,
                                      uint32_t owAligned, uint32_t stride, uint32_t pad, uint32_t w,
                                      uint32_t zeroIdx)
{
    for (uint32_t kw = 0; kw < k; ++kw) {
        for (uint32_t o = 0; o < owAligned; ++o) {
            int32_t col = static_cast<int32_t>(o * stride + kw) - static_cast<int32_t>(pad);
            uint32_t idx = (o < ow && col >= 0 && col < static_cast<int32_t>(w)) ? static_cast<uint32_t>(col)
                                                                                  : zeroIdx;
            tbl.SetValue(kw * owAligned + o, idx * static_cast<uint32_t>(sizeof(float)));
        }
    }
}

template <typename T>
class WindowMeanPool2d {
public:
    __aicore__ inline WindowMeanPool2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const WindowMeanPool2dTilingData& t)
    {
        td = t;
        uint32_t idx = GetBlockIdx();
        rowCount = t.rowsPerCore + (idx < t.rowsTail ? 1 : 0);
        rowStart = idx * t.rowsPerCore + (idx < t.rowsTail ? idx : t.rowsTail);

        uint64_t planes = t.totalRows / t.outH;
        xGm.SetGlobalBuffer((__gm__ T*)x, planes * t.inH * t.inW);
        yGm.SetGlobalBuffer((__gm__ T*)y, planes * t.outH * t.outW);

        pipe.InitBuffer(inQ, BUFFER_NUM, t.kernel * t.wAligned * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, t.outWAligned * sizeof(T));
        pipe.InitBuffer(colSumBuf, t.wAligned * sizeof(float));
        pipe.InitBuffer(gatherBuf, t.outWAligned * sizeof(float));
        pipe.InitBuffer(accBuf, t.outWAligned * sizeof(float));
        pipe.InitBuffer(tapBuf, t.kernel * t.outWAligned * sizeof(uint32_t));
        if constexpr (!IsSameType<T, float>::value) {
            pipe.InitBuffer(castBuf, t.kernel * t.wAligned * sizeof(float));
        }

        zeroIdx = t.wAligned - 16;
        taps = tapBuf.Get<uint32_t>();
        BuildTapTables(taps, t.kernel, t.outW, t.outWAligned, t.stride, t.pad, t.inW, zeroIdx);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint32_t row = rowStart + r;
            uint32_t plane = row / td.outH;
            uint32_t oh = row % td.outH;
            int32_t h0 = static_cast<int32_t>(oh * td.stride) - static_cast<int32_t>(td.pad);
            int32_t hBeg = h0 < 0 ? 0 : h0;
            int32_t hEnd = h0 + static_cast<int32_t>(td.kernel);
            if (hEnd > static_cast<int32_t>(td.inH)) {
                hEnd = static_cast<int32_t>(td.inH);
            }
            uint32_t rows = static_cast<uint32_t>(hEnd - hBeg);
            CopyIn(plane, static_cast<uint32_t>(hBeg), rows);
            Compute(rows);
            CopyOut(static_cast<uint64_t>(plane) * td.outH * td.outW + static_cast<uint64_t>(oh) * td.outW);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t plane, uint32_t hBeg, uint32_t rows)
    {
        LocalTensor<T> win = inQ.AllocTensor<T>();
        if (rows > 0) {
            // the window's input rows are contiguous in GM; each lands on a wAligned stride in UB
            uint32_t gapBlocks = (td.wAligned * sizeof(T) - AlignBytes(td.inW * sizeof(T))) / 32;
            DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(td.inW * sizeof(T)), 0,
                                 gapBlocks, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
            uint64_t src = (static_cast<uint64_t>(plane) * td.inH + hBeg) * td.inW;
            DataCopyPad(win, xGm[src], cp, pad);
        }
        inQ.EnQue(win);
    }

    __aicore__ inline void Compute(uint32_t rows)
    {
        LocalTensor<T> win = inQ.DeQue<T>();
        LocalTensor<float> rowsF;
        uint32_t rowLen = td.wAligned - 16;
        if constexpr (IsSameType<T, float>::value) {
            rowsF = win;
        } else {
            rowsF = castBuf.Get<float>();
            if (rows > 0) {
                Cast(rowsF, win, RoundMode::CAST_NONE, rows * td.wAligned);
            }
        }

        // vertical pass: column sums over the rows inside the window
        LocalTensor<float> colSum = colSumBuf.Get<float>();
        Duplicate(colSum, 0.0f, td.wAligned);
        for (uint32_t i = 0; i < rows; ++i) {
            Add(colSum, colSum, rowsF[i * td.wAligned], rowLen);
        }
        inQ.FreeTensor(win);

        // horizontal pass: gather tap kw for every output column and accumulate
        LocalTensor<float> g = gatherBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, td.outWAligned);
        for (uint32_t kw = 0; kw < td.kernel; ++kw) {
            Gather(g, colSum, taps[kw * td.outWAligned], 0, td.outWAligned);
            Add(acc, acc, g, td.outWAligned);
        }

        LocalTensor<T> out = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            Muls(out, acc, td.invArea, td.outWAligned);
        } else {
            Muls(acc, acc, td.invArea, td.outWAligned);
            Cast(out, acc, RoundMode::CAST_ROUND, td.outWAligned);
        }
        outQ.EnQue(out);
    }

    __aicore__ inline void CopyOut(uint64_t dst)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(td.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[dst], out, cp);
        outQ.FreeTensor(out);
    }

    __aicore__ inline uint32_t AlignBytes(uint32_t b) { return (b + 31) / 32 * 32; }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> colSumBuf, gatherBuf, accBuf, tapBuf, castBuf;
    LocalTensor<uint32_t> taps;
    GlobalTensor<T> xGm, yGm;
    WindowMeanPool2dTilingData td;
    uint32_t rowCount = 0, rowStart = 0, zeroIdx = 0;
};

extern "C" __global__ __aicore__ void window_mean_pool2d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        WindowMeanPool2d<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        WindowMeanPool2d<half> op;
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

at::Tensor window_mean_pool2d_impl_npu(const at::Tensor& x, int64_t kernelSize, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 4, "expects NCHW input");
    int64_t s = stride > 0 ? stride : kernelSize;
    int64_t oh = (x.size(2) + 2 * padding - kernelSize) / s + 1;
    int64_t ow = (x.size(3) + 2 * padding - kernelSize) / s + 1;
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty({x.size(0), x.size(1), oh, ow}, xc.options());
    EXEC_NPU_CMD(aclnnWindowMeanPool2dCustom, xc, kernelSize, s, padding, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("window_mean_pool2d_custom", &window_mean_pool2d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("window_mean_pool2d_custom", &window_mean_pool2d_impl_npu,
          "2D average pooling (count_include_pad, floor mode)",
          pybind11::arg("x"), pybind11::arg("kernel_size"), pybind11::arg("stride") = 0,
          pybind11::arg("padding") = 0);
}
"""
