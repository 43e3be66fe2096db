project_json_src='''
[
    {
        "op": "PlanarTransposedConvCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "output_padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "groups", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PlanarTransposedConvTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, ih);
  TILING_DATA_FIELD_DEF(uint32_t, iw);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, iwAligned);
  TILING_DATA_FIELD_DEF(uint32_t, owAligned);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(int32_t, stride);
  TILING_DATA_FIELD_DEF(int32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTotal);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlanarTransposedConvCustom, PlanarTransposedConvTiling)
}
"""

host_operator_src="""
#include "planar_transposed_conv_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t LEAD = 16;   // zero elements before staged input row

inline uint32_t Round16(uint32_t v) { return (v + 15) & ~15u; }

class DeconvTilingHelper {
public:
    DeconvTilingHelper(gert::TilingContext *ctx) : ctx_(ctx) {}

    ge::graphStatus Build(PlanarTransposedConvTiling &t, uint32_t &blockDim)
    {
        auto xs = ctx_->GetInputShape(0)->GetStorageShape();
        auto ws = ctx_->GetInputShape(1)->GetStorageShape();
        const auto *attrs = ctx_->GetAttrs();
        int64_t s = *attrs->GetAttrPointer<int64_t>(0);
        int64_t p = *attrs->GetAttrPointer<int64_t>(1);
        int64_t op = *attrs->GetAttrPointer<int64_t>(2);
        int64_t g = *attrs->GetAttrPointer<int64_t>(3);
        if (s <= 0 || g <= 0) return ge::GRAPH_FAILED;

        uint32_t k = ws.GetDim(2);
        uint32_t ih = xs.GetDim(2), iw = xs.GetDim(3);
        uint32_t oh = (ih - 1) * s - 2 * p + k + op;
        uint32_t ow = (iw - 1) * s - 2 * p + k + op;
        t.set_n(xs.GetDim(0));
        t.set_cin(xs.GetDim(1));
        t.set_cout(ws.GetDim(1) * g);
        t.set_groups(g);
        t.set_ih(ih); t.set_iw(iw); t.set_oh(oh); t.set_ow(ow);
        t.set_iwAligned(Round16(iw));
        t.set_owAligned(Round16(ow));
        t.set_k(k);
        t.set_stride(static_cast<int32_t>(s));
        t.set_pad(static_cast<int32_t>(p));

        auto plat = platform_ascendc::PlatformAscendC(ctx_->GetPlatformInfo());
        uint64_t ub = 0;
        plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
        uint32_t elem = ctx_->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
        uint32_t owA = Round16(ow), iwA = Round16(iw);
        uint64_t fixed = 2ULL * iwA * elem + (LEAD + iwA) * 4ULL + 2ULL * k * owA * 4 + 8 * 1024;
        uint64_t perCo = owA * (4ULL + 2ULL * elem);
        uint64_t cb = ub > fixed ? (ub - fixed) / perCo : 1;
        uint32_t coutPerGroup = ws.GetDim(1);
        if (cb > coutPerGroup) cb = coutPerGroup;
        if (cb == 0) cb = 1;
        t.set_coBlock(static_cast<uint32_t>(cb));

        uint32_t rows = xs.GetDim(0) * oh;
        uint32_t cores = plat.GetCoreNumAiv();
        uint32_t per = (rows + cores - 1) / cores;
        t.set_rowsPerCore(per);
        t.set_rowsTotal(rows);
        blockDim = (rows + per - 1) / per;
        return ge::GRAPH_SUCCESS;
    }

private:
    gert::TilingContext *ctx_;
};
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    PlanarTransposedConvTiling tiling;
    uint32_t blockDim = 1;
    DeconvTilingHelper helper(context);
    if (helper.Build(tiling, blockDim) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    context->SetBlockDim(blockDim);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    const gert::Shape *w = context->GetInputShape(1);
    const auto *attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t op = *attrs->GetAttrPointer<int64_t>(2);
    int64_t g = *attrs->GetAttrPointer<int64_t>(3);
    int64_t k = w->GetDim(2);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1) * g);
    y->SetDim(2, (x->GetDim(2) - 1) * s - 2 * p + k + op);
    y->SetDim(3, (x->GetDim(3) - 1) * s - 2 * p + k + op);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PlanarTransposedConvCustom : public OpDef {
public:
    explicit PlanarTransposedConvCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);
        this->Attr("groups").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PlanarTransposedConvCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t LEAD = 16;

// ow -> input column for tap kw; byte offset into the fp32 staged row, 0 selects the zero lead
__aicore__ inline void FillColumnMap(LocalTensor<uint32_t> &map, const PlanarTransposedConvTiling &t)
{
    for (uint32_t kw = 0; kw < t.k; ++kw) {
        for (uint32_t ow = 0; ow < t.owAligned; ++ow) {
            int32_t v = static_cast<int32_t>(ow) + t.pad - static_cast<int32_t>(kw);
            uint32_t byteOff = 0;
            if (ow < t.ow && v >= 0 && v % t.stride == 0 && v / t.stride < static_cast<int32_t>(t.iw)) {
                byteOff = (LEAD + v / t.stride) * sizeof(float);
            }
            map.SetValue(kw * t.owAligned + ow, byteOff);
        }
    }
}

template <typename T>
class PlanarTransposedConv {
public:
    __aicore__ inline PlanarTransposedConv() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const PlanarTransposedConvTiling &t)
    {
        cfg = t;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        rowFirst = GetBlockIdx() * cfg.rowsPerCore;
        rowLast = rowFirst + cfg.rowsPerCore;
        if (rowLast > cfg.rowsTotal) rowLast = cfg.rowsTotal;
        cinG = cfg.cin / cfg.groups;
        coutG = cfg.cout / cfg.groups;

        pipe.InitBuffer(xQue, BUFFER_NUM, cfg.iwAligned * sizeof(T));
        pipe.InitBuffer(yQue, BUFFER_NUM, cfg.coBlock * cfg.owAligned * sizeof(T));
        pipe.InitBuffer(rowF32, (LEAD + cfg.iwAligned) * sizeof(float));
        pipe.InitBuffer(colMap, cfg.k * cfg.owAligned * sizeof(uint32_t));
        pipe.InitBuffer(tapRows, cfg.k * cfg.owAligned * sizeof(float));
        pipe.InitBuffer(accum, cfg.coBlock * cfg.owAligned * sizeof(float));

        LocalTensor<uint32_t> map = colMap.Get<uint32_t>();
        FillColumnMap(map, cfg);
        LocalTensor<float> row = rowF32.Get<float>();
        Duplicate(row, 0.0f, LEAD + cfg.iwAligned);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowFirst; r < rowLast; ++r) {
            uint32_t b = r / cfg.oh;
            uint32_t oy = r % cfg.oh;
            for (uint32_t g = 0; g < cfg.groups; ++g) {
                for (uint32_t c0 = 0; c0 < coutG; c0 += cfg.coBlock) {
                    uint32_t cn = coutG - c0 < cfg.coBlock ? coutG - c0 : cfg.coBlock;
                    RowBlock(b, oy, g, c0, cn);
                }
            }
        }
    }

private:
    __aicore__ inline void RowBlock(uint32_t b, uint32_t oy, uint32_t g, uint32_t c0, uint32_t cn)
    {
        const uint32_t owA = cfg.owAligned;
        LocalTensor<float> acc = accum.Get<float>();
        Duplicate(acc, 0.0f, cn * owA);
        PipeBarrier<PIPE_V>();
        for (uint32_t cl = 0; cl < cinG; ++cl) {
            uint32_t ci = g * cinG + cl;
            for (uint32_t kh = 0; kh < cfg.k; ++kh) {
                int32_t v = static_cast<int32_t>(oy) + cfg.pad - static_cast<int32_t>(kh);
                if (v < 0 || v % cfg.stride != 0) continue;
                uint32_t iy = static_cast<uint32_t>(v / cfg.stride);
                if (iy >= cfg.ih) continue;
                FetchRow(((uint64_t)b * cfg.cin + ci) * cfg.ih + iy);
                SpreadTaps();
                // weight [Cin, Cout/groups, K, K]
                uint64_t wb = ((uint64_t)ci * coutG + c0) * cfg.k * cfg.k + kh * cfg.k;
                for (uint32_t c = 0; c < cn; ++c) {
                    LocalTensor<float> dst = acc[c * owA];
                    for (uint32_t kw = 0; kw < cfg.k; ++kw) {
                        float wv = static_cast<float>(wGm.GetValue(wb + (uint64_t)c * cfg.k * cfg.k + kw));
                        Axpy(dst, tapRows.Get<float>()[kw * owA], wv, owA);
                    }
                }
                PipeBarrier<PIPE_V>();
            }
        }
        WriteBlock(b, oy, g * coutG + c0, cn, acc);
    }

    __aicore__ inline void FetchRow(uint64_t rowIdx)
    {
        LocalTensor<T> xl = xQue.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cfg.iw * sizeof(T)), 0, 0, 0};
        DataCopyPad(xl, xGm[rowIdx * cfg.iw], cp, DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
        xQue.EnQue(xl);
    }

    __aicore__ inline void SpreadTaps()
    {
        LocalTensor<T> xl = xQue.DeQue<T>();
        LocalTensor<float> row = rowF32.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            Adds(row[LEAD], xl, 0.0f, cfg.iw);
        } else {
            Cast(row[LEAD], xl, RoundMode::CAST_NONE, cfg.iw);
        }
        xQue.FreeTensor(xl);
        PipeBarrier<PIPE_V>();
        LocalTensor<uint32_t> map = colMap.Get<uint32_t>();
        LocalTensor<float> taps = tapRows.Get<float>();
        for (uint32_t kw = 0; kw < cfg.k; ++kw) {
            Gather(taps[kw * cfg.owAligned], row, map[kw * cfg.owAligned], (uint32_t)0, cfg.owAligned);
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void WriteBlock(uint32_t b, uint32_t oy, uint32_t co, uint32_t cn, LocalTensor<float> &acc)
    {
        const uint32_t owA = cfg.owAligned;
        LocalTensor<T> yl = yQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(yl, acc, cn * owA);
        } else {
            Cast(yl, acc, RoundMode::CAST_RINT, cn * owA);
        }
        yQue.EnQue(yl);
        yl = yQue.DeQue<T>();
        uint64_t plane = (uint64_t)cfg.oh * cfg.ow;
        uint32_t bytes = cfg.ow * sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(cn), bytes,
                             static_cast<uint32_t>((owA * sizeof(T) - ((bytes + 31) & ~31u)) / 32),
                             static_cast<uint32_t>((plane - cfg.ow) * sizeof(T)), 0};
        DataCopyPad(yGm[((uint64_t)b * cfg.cout + co) * plane + (uint64_t)oy * cfg.ow], yl, cp);
        yQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> xQue;
    TQue<TPosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<TPosition::VECCALC> rowF32, colMap, tapRows, accum;
    GlobalTensor<T> xGm, wGm, yGm;
    PlanarTransposedConvTiling cfg;
    uint32_t rowFirst = 0, rowLast = 0, cinG = 1, coutG = 1;
};

extern "C" __global__ __aicore__ void planar_transposed_conv_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        PlanarTransposedConv<float> op;
        op.Init(x, weight, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        PlanarTransposedConv<half> op;
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

at::Tensor planar_transposed_conv_impl_npu(const at::Tensor &x, const at::Tensor &weight, int64_t stride,
                                           int64_t padding, int64_t output_padding, int64_t groups)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and [Cin, Cout/g, K, K] weight");
    TORCH_CHECK(x.size(1) % groups == 0 && weight.size(0) == x.size(1), "channel/group mismatch");
    int64_t k = weight.size(2);
    int64_t oh = (x.size(2) - 1) * stride - 2 * padding + k + output_padding;
    int64_t ow = (x.size(3) - 1) * stride - 2 * padding + k + output_padding;
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.to(x.scalar_type()).contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(1) * groups, oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnPlanarTransposedConvCustom, xc, wc, stride, padding, output_padding, groups, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("planar_transposed_conv_custom", &planar_transposed_conv_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("planar_transposed_conv_custom", &planar_transposed_conv_impl_npu, "2D transposed convolution",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("stride") = 1, pybind11::arg("padding") = 0,
          pybind11::arg("output_padding") = 0, pybind11::arg("groups") = 1);
}
"""
