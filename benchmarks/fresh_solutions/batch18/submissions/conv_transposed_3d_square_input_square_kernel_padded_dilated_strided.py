project_json_src='''
[
    {
        "op": "DilatedVolumeUpsampleConvCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "required", "type": "int"},
            {"name": "dilation", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DilatedVolumeUpsampleConvTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(int32_t, stride);
  TILING_DATA_FIELD_DEF(int32_t, padding);
  TILING_DATA_FIELD_DEF(int32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, coTile);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DilatedVolumeUpsampleConvCustom, DilatedVolumeUpsampleConvTiling)
}
"""

host_operator_src="""
#include "dilated_volume_upsample_conv_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t ALIGN_ELEMS = 16;   // 32 bytes for half, 64 bytes for float: one row pad works for both
constexpr uint32_t FRONT_ELEMS = 16;   // zero slot in front of the staged input row
constexpr uint32_t RESERVED_UB = 8 * 1024;

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct DeconvGeometry {
    uint32_t n, ci, co, d, h, w, k;
    int32_t s, p, dl;
    uint32_t od, oh, ow;
    void Derive()
    {
        od = (d - 1) * s - 2 * p + dl * (k - 1) + 1;
        oh = (h - 1) * s - 2 * p + dl * (k - 1) + 1;
        ow = (w - 1) * s - 2 * p + dl * (k - 1) + 1;
    }
};

// channels of output kept resident in UB per output row
uint32_t PickCoTile(const DeconvGeometry &g, uint64_t ubSize, uint32_t elemBytes)
{
    uint32_t owPad = AlignUp(g.ow, ALIGN_ELEMS);
    uint32_t iwPad = AlignUp(g.w, ALIGN_ELEMS);
    uint64_t fixed = 2ULL * iwPad * elemBytes                 // input row queue
                   + (FRONT_ELEMS + iwPad) * sizeof(float)     // fp32 staged row
                   + 2ULL * g.k * owPad * sizeof(float)        // tap rows + gather offsets
                   + RESERVED_UB;
    uint64_t perCo = owPad * (sizeof(float) + 2ULL * elemBytes);
    uint64_t avail = ubSize > fixed ? ubSize - fixed : perCo;
    uint64_t t = avail / perCo;
    if (t < 1) t = 1;
    if (t > g.co) t = g.co;
    return static_cast<uint32_t>(t);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    auto wShape = context->GetInputShape(1)->GetStorageShape();
    const auto *attrs = context->GetAttrs();
    DeconvGeometry g;
    g.n = xShape.GetDim(0); g.ci = xShape.GetDim(1);
    g.d = xShape.GetDim(2); g.h = xShape.GetDim(3); g.w = xShape.GetDim(4);
    g.co = wShape.GetDim(1); g.k = wShape.GetDim(2);
    g.s = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(0));
    g.p = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(1));
    g.dl = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(2));
    g.Derive();

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = plat.GetCoreNumAiv();

    auto dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = (dtype == ge::DT_FLOAT16) ? 2 : 4;
    context->SetTilingKey(dtype == ge::DT_FLOAT16 ? 1 : 0);

    uint32_t totalRows = g.n * g.od * g.oh;
    uint32_t rowsPerCore = (totalRows + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalRows + rowsPerCore - 1) / rowsPerCore;
    context->SetBlockDim(usedCores);

    DilatedVolumeUpsampleConvTiling tiling;
    tiling.set_batch(g.n); tiling.set_cin(g.ci); tiling.set_cout(g.co);
    tiling.set_inD(g.d); tiling.set_inH(g.h); tiling.set_inW(g.w);
    tiling.set_outD(g.od); tiling.set_outH(g.oh); tiling.set_outW(g.ow);
    tiling.set_outWPad(AlignUp(g.ow, ALIGN_ELEMS));
    tiling.set_inWPad(AlignUp(g.w, ALIGN_ELEMS));
    tiling.set_ksize(g.k);
    tiling.set_stride(g.s); tiling.set_padding(g.p); tiling.set_dilation(g.dl);
    tiling.set_coTile(PickCoTile(g, ubSize, elemBytes));
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_totalRows(totalRows);
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
    int64_t dl = *attrs->GetAttrPointer<int64_t>(2);
    int64_t k = w->GetDim(2);
    gert::Shape *y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, (x->GetDim(i) - 1) * s - 2 * p + dl * (k - 1) + 1);
    }
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class DilatedVolumeUpsampleConvCustom : public OpDef {
public:
    explicit DilatedVolumeUpsampleConvCustom(const char *name) : OpDef(name)
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
        this->Attr("stride").Int();
        this->Attr("padding").Int();
        this->Attr("dilation").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DilatedVolumeUpsampleConvCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FRONT_ELEMS = 16;   // fp32 zeros before the staged row; gather offset 0 reads zero

// Resolves, per output column and kernel tap, which input column feeds it.
struct TapIndexBuilder {
    __aicore__ static inline void Build(LocalTensor<uint32_t> &tab, uint32_t k, uint32_t owPad, uint32_t ow,
                                        uint32_t iw, int32_t s, int32_t p, int32_t dl)
    {
        for (uint32_t kw = 0; kw < k; ++kw) {
            for (uint32_t j = 0; j < owPad; ++j) {
                uint32_t off = 0;
                int32_t num = static_cast<int32_t>(j) + p - static_cast<int32_t>(kw) * dl;
                if (j < ow && num >= 0 && (num % s) == 0) {
                    int32_t src = num / s;
                    if (src < static_cast<int32_t>(iw)) {
                        off = (FRONT_ELEMS + src) * sizeof(float);
                    }
                }
                tab.SetValue(kw * owPad + j, off);
            }
        }
    }
};

template <typename T>
class DilatedVolumeUpsampleConv {
public:
    __aicore__ inline DilatedVolumeUpsampleConv() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const DilatedVolumeUpsampleConvTiling &t)
    {
        tl = t;
        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        rowBegin = GetBlockIdx() * tl.rowsPerCore;
        rowEnd = rowBegin + tl.rowsPerCore;
        if (rowEnd > tl.totalRows) rowEnd = tl.totalRows;

        pipe.InitBuffer(inQ, BUFFER_NUM, tl.inWPad * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tl.coTile * tl.outWPad * sizeof(T));
        pipe.InitBuffer(stageBuf, (FRONT_ELEMS + tl.inWPad) * sizeof(float));
        pipe.InitBuffer(tapBuf, tl.ksize * tl.outWPad * sizeof(float));
        pipe.InitBuffer(idxBuf, tl.ksize * tl.outWPad * sizeof(uint32_t));
        pipe.InitBuffer(accBuf, tl.coTile * tl.outWPad * sizeof(float));

        stage = stageBuf.Get<float>();
        taps = tapBuf.Get<float>();
        idx = idxBuf.Get<uint32_t>();
        acc = accBuf.Get<float>();

        Duplicate(stage, 0.0f, FRONT_ELEMS + tl.inWPad);
        TapIndexBuilder::Build(idx, tl.ksize, tl.outWPad, tl.outW, tl.inW, tl.stride, tl.padding, tl.dilation);
        event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            uint32_t oh = r % tl.outH;
            uint32_t od = (r / tl.outH) % tl.outD;
            uint32_t n = r / (tl.outH * tl.outD);
            for (uint32_t co0 = 0; co0 < tl.cout; co0 += tl.coTile) {
                uint32_t coCnt = (tl.cout - co0 < tl.coTile) ? (tl.cout - co0) : tl.coTile;
                AccumulateRow(n, od, oh, co0, coCnt);
                EmitRow(n, od, oh, co0, coCnt);
            }
        }
    }

private:
    // contributes only when (o + p - k*d) is a non-negative multiple of s inside the input
    __aicore__ inline bool SourceIndex(uint32_t o, uint32_t kk, uint32_t inLen, uint32_t &src) const
    {
        int32_t num = static_cast<int32_t>(o) + tl.padding - static_cast<int32_t>(kk) * tl.dilation;
        if (num < 0 || (num % tl.stride) != 0) return false;
        int32_t q = num / tl.stride;
        if (q >= static_cast<int32_t>(inLen)) return false;
        src = static_cast<uint32_t>(q);
        return true;
    }

    __aicore__ inline void AccumulateRow(uint32_t n, uint32_t od, uint32_t oh, uint32_t co0, uint32_t coCnt)
    {
        const uint32_t owPad = tl.outWPad;
        const uint32_t k = tl.ksize;
        Duplicate(acc, 0.0f, coCnt * owPad);
        for (uint32_t ci = 0; ci < tl.cin; ++ci) {
            for (uint32_t kd = 0; kd < k; ++kd) {
                uint32_t id;
                if (!SourceIndex(od, kd, tl.inD, id)) continue;
                for (uint32_t kh = 0; kh < k; ++kh) {
                    uint32_t ih;
                    if (!SourceIndex(oh, kh, tl.inH, ih)) continue;
                    uint64_t base = ((((uint64_t)n * tl.cin + ci) * tl.inD + id) * tl.inH + ih) * tl.inW;
                    LoadInputRow(base);
                    StageAndGather();
                    // weight layout [Cin, Cout, K, K, K]
                    uint64_t wBase = (((uint64_t)ci * tl.cout + co0) * k + kd) * k * k + kh * k;
                    for (uint32_t c = 0; c < coCnt; ++c) {
                        LocalTensor<float> accRow = acc[c * owPad];
                        uint64_t wRow = wBase + (uint64_t)c * k * k * k;
                        for (uint32_t kw = 0; kw < k; ++kw) {
                            float wv = static_cast<float>(wGm.GetValue(wRow + kw));
                            Axpy(accRow, taps[kw * owPad], wv, owPad);
                        }
                    }
                    PipeBarrier<PIPE_V>();
                }
            }
        }
    }

    __aicore__ inline void LoadInputRow(uint64_t base)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(tl.inW * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, 0, static_cast<T>(0)};
        DataCopyPad(xl, xGm[base], cp, pad);
        inQ.EnQue(xl);
    }

    // fp32 staged row -> one shifted/strided copy per kw via Gather
    __aicore__ inline void StageAndGather()
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(stage[FRONT_ELEMS], xl, tl.inWPad);
        } else {
            Cast(stage[FRONT_ELEMS], xl, RoundMode::CAST_NONE, tl.inWPad);
        }
        inQ.FreeTensor(xl);
        // tail past inW must stay zero: masked by gather table, but keep it clean
        PipeBarrier<PIPE_V>();
        for (uint32_t kw = 0; kw < tl.ksize; ++kw) {
            LocalTensor<uint32_t> off = idx[kw * tl.outWPad];
            LocalTensor<float> dst = taps[kw * tl.outWPad];
            Gather(dst, stage, off, (uint32_t)0, tl.outWPad);
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void EmitRow(uint32_t n, uint32_t od, uint32_t oh, uint32_t co0, uint32_t coCnt)
    {
        const uint32_t owPad = tl.outWPad;
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(yl, acc, coCnt * owPad);
        } else {
            Cast(yl, acc, RoundMode::CAST_RINT, coCnt * owPad);
        }
        outQ.EnQue(yl);
        yl = outQ.DeQue<T>();
        uint64_t plane = (uint64_t)tl.outD * tl.outH * tl.outW;
        uint64_t dst = (((uint64_t)n * tl.cout + co0) * tl.outD + od) * tl.outH * tl.outW + (uint64_t)oh * tl.outW;
        uint32_t rowBytes = tl.outW * sizeof(T);
        uint32_t rowBytesAligned = (rowBytes + 31) / 32 * 32;
        DataCopyExtParams cp{static_cast<uint16_t>(coCnt), rowBytes,
                             static_cast<uint32_t>((owPad * sizeof(T) - rowBytesAligned) / 32),
                             static_cast<uint32_t>((plane - tl.outW) * sizeof(T)), 0};
        DataCopyPad(yGm[dst], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> stageBuf, tapBuf, idxBuf, accBuf;
    LocalTensor<float> stage, taps, acc;
    LocalTensor<uint32_t> idx;
    GlobalTensor<T> xGm, wGm, yGm;
    DilatedVolumeUpsampleConvTiling tl;
    uint32_t rowBegin = 0, rowEnd = 0;
};

extern "C" __global__ __aicore__ void dilated_volume_upsample_conv_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        DilatedVolumeUpsampleConv<float> op;
        op.Init(x, weight, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        DilatedVolumeUpsampleConv<half> op;
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

at::Tensor dilated_volume_upsample_conv_impl_npu(const at::Tensor &x, const at::Tensor &weight,
                                                 int64_t stride, int64_t padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected NCDHW input and [Cin, Cout, K, K, K] weight");
    int64_t k = weight.size(2);
    auto outLen = [&](int64_t in) { return (in - 1) * stride - 2 * padding + dilation * (k - 1) + 1; };
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.to(x.scalar_type()).contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(1), outLen(x.size(2)), outLen(x.size(3)), outLen(x.size(4))},
                             x.options());
    EXEC_NPU_CMD(aclnnDilatedVolumeUpsampleConvCustom, xc, wc, stride, padding, dilation, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("dilated_volume_upsample_conv_custom", &dilated_volume_upsample_conv_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("dilated_volume_upsample_conv_custom", &dilated_volume_upsample_conv_impl_npu,
          "3D transposed convolution with stride, padding and dilation");
}
"""
