project_json_src='''
[
    {
        "op": "SpacedTapConv2dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "stride", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "pad_h", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "pad_w", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "dil_h", "param_type": "optional", "type": "int", "default_value": "1"},
            {"name": "dil_w", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SpacedTapConv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, ho);
  TILING_DATA_FIELD_DEF(uint32_t, wo);
  TILING_DATA_FIELD_DEF(uint32_t, wAlign);
  TILING_DATA_FIELD_DEF(uint32_t, woAlign);
  TILING_DATA_FIELD_DEF(int32_t, stride);
  TILING_DATA_FIELD_DEF(int32_t, padH);
  TILING_DATA_FIELD_DEF(int32_t, padW);
  TILING_DATA_FIELD_DEF(int32_t, dilH);
  TILING_DATA_FIELD_DEF(int32_t, dilW);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);
  TILING_DATA_FIELD_DEF(uint32_t, coBlockNum);
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);
  TILING_DATA_FIELD_DEF(uint32_t, taskPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SpacedTapConv2dCustom, SpacedTapConv2dTilingData)
}
"""

host_operator_src="""
#include "spaced_tap_conv2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ACC_BYTES = 32 * 1024;     // fp32 accumulators for one co block
constexpr uint32_t WEIGHT_BYTES = 64 * 1024;  // weight slice of one co block kept in UB

static inline uint32_t CeilAlign(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    auto attrs = context->GetAttrs();
    int32_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int32_t padH = *attrs->GetAttrPointer<int64_t>(1);
    int32_t padW = *attrs->GetAttrPointer<int64_t>(2);
    int32_t dilH = *attrs->GetAttrPointer<int64_t>(3);
    int32_t dilW = *attrs->GetAttrPointer<int64_t>(4);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (ws.GetDim(1) != cin) return ge::GRAPH_FAILED;
    uint32_t ho = (h + 2 * padH - dilH * (kh - 1) - 1) / stride + 1;
    uint32_t wo = (w + 2 * padW - dilW * (kw - 1) - 1) / stride + 1;

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t typeSize = isHalf ? 2 : 4;
    uint32_t woAlign = CeilAlign(wo, 16);
    uint32_t wAlign = CeilAlign(w, 16);

    uint32_t perCoWeight = CeilAlign(cin * kh * kw, 32 / typeSize) * typeSize;
    uint32_t coBlock = ACC_BYTES / (woAlign * sizeof(float));
    uint32_t byWeight = WEIGHT_BYTES / perCoWeight;
    if (byWeight < coBlock) coBlock = byWeight;
    if (coBlock == 0) coBlock = 1;
    if (coBlock > cout) coBlock = cout;
    uint32_t coBlockNum = (cout + coBlock - 1) / coBlock;

    uint32_t taskNum = coBlockNum * n * ho;
    uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
    uint32_t per = (taskNum + cores - 1) / cores;

    SpacedTapConv2dTilingData td;
    td.set_n(n); td.set_cin(cin); td.set_cout(cout); td.set_h(h); td.set_w(w);
    td.set_kh(kh); td.set_kw(kw); td.set_ho(ho); td.set_wo(wo);
    td.set_wAlign(wAlign); td.set_woAlign(woAlign);
    td.set_stride(stride); td.set_padH(padH); td.set_padW(padW); td.set_dilH(dilH); td.set_dilW(dilW);
    td.set_coBlock(coBlock); td.set_coBlockNum(coBlockNum);
    td.set_taskNum(taskNum); td.set_taskPerCore(per);

    context->SetBlockDim((taskNum + per - 1) / per);
    context->SetTilingKey(isHalf ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t ph = *attrs->GetAttrPointer<int64_t>(1);
    int64_t pw = *attrs->GetAttrPointer<int64_t>(2);
    int64_t dh = *attrs->GetAttrPointer<int64_t>(3);
    int64_t dw = *attrs->GetAttrPointer<int64_t>(4);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, (xs->GetDim(2) + 2 * ph - dh * (ws->GetDim(2) - 1) - 1) / s + 1);
    ys->SetDim(3, (xs->GetDim(3) + 2 * pw - dw * (ws->GetDim(3) - 1) - 1) / s + 1);
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class SpacedTapConv2dCustom : public OpDef {
public:
    explicit SpacedTapConv2dCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("pad_h").AttrType(OPTIONAL).Int(0);
        this->Attr("pad_w").AttrType(OPTIONAL).Int(0);
        this->Attr("dil_h").AttrType(OPTIONAL).Int(1);
        this->Attr("dil_w").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SpacedTapConv2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Column gather tables: for each kw, tap[ow] = row[ow*stride - padW + kw*dilW].
// Out-of-range columns point at a zero slot placed right after the loaded row.
class ColumnTapTable {
public:
    __aicore__ inline void Build(AscendC::LocalTensor<uint32_t>& tbl, const SpacedTapConv2dTilingData& td,
                                 uint32_t zeroSlot)
    {
        for (uint32_t k = 0; k < td.kw; ++k) {
            for (uint32_t ow = 0; ow < td.woAlign; ++ow) {
                int32_t iw = (int32_t)ow * td.stride - td.padW + (int32_t)k * td.dilW;
                uint32_t idx = (ow < td.wo && iw >= 0 && iw < (int32_t)td.w) ? (uint32_t)iw : zeroSlot;
                tbl.SetValue(k * td.woAlign + ow, idx * (uint32_t)sizeof(float));
            }
        }
    }
};

template <typename T>
class SpacedTapConv2d {
public:
    __aicore__ inline SpacedTapConv2d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR y, const SpacedTapConv2dTilingData& td)
    {
        td_ = td;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)wt);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        rowLen = td.wAlign + 16;                         // + zero slot block
        wSlice = td.cin * td.kh * td.kw;
        uint32_t wSliceAlign = (wSlice + 15) / 16 * 16;
        pipe.InitBuffer(rowQ, BUFFER_NUM, rowLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, td.woAlign * sizeof(T));
        pipe.InitBuffer(rowF32Buf, rowLen * sizeof(float));
        pipe.InitBuffer(tapBuf, td.woAlign * sizeof(float));
        pipe.InitBuffer(accBuf, td.coBlock * td.woAlign * sizeof(float));
        pipe.InitBuffer(wBuf, td.coBlock * wSliceAlign * sizeof(T));
        pipe.InitBuffer(tblBuf, td.kw * td.woAlign * sizeof(uint32_t));
        wStride = wSliceAlign;

        AscendC::LocalTensor<uint32_t> tbl = tblBuf.Get<uint32_t>();
        ColumnTapTable().Build(tbl, td_, td_.w);
    }

    __aicore__ inline void Process()
    {
        uint32_t t0 = AscendC::GetBlockIdx() * td_.taskPerCore;
        uint32_t t1 = t0 + td_.taskPerCore;
        if (t1 > td_.taskNum) t1 = td_.taskNum;
        int32_t cachedBlock = -1;
        uint32_t rowsPerBlock = td_.n * td_.ho;
        for (uint32_t t = t0; t < t1; ++t) {
            uint32_t cb = t / rowsPerBlock;      // co block outermost -> weight slice reuse
            uint32_t rem = t % rowsPerBlock;
            uint32_t b = rem / td_.ho;
            uint32_t oh = rem % td_.ho;
            if ((int32_t)cb != cachedBlock) {
                LoadWeights(cb);
                cachedBlock = (int32_t)cb;
            }
            RunRow(b, oh, cb);
        }
    }

private:
    __aicore__ inline uint32_t BlockCount(uint32_t cb)
    {
        uint32_t co0 = cb * td_.coBlock;
        return td_.cout - co0 < td_.coBlock ? td_.cout - co0 : td_.coBlock;
    }

    __aicore__ inline void LoadWeights(uint32_t cb)
    {
        AscendC::LocalTensor<T> wl = wBuf.Get<T>();
        uint32_t cnt = BlockCount(cb);
        // one burst per output channel, destination rows padded to wStride
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(cnt), static_cast<uint32_t>(wSlice * sizeof(T)), 0,
                                      static_cast<uint32_t>((wStride - wSlice) * sizeof(T) / 32), 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        AscendC::DataCopyPad(wl, wGm[(uint64_t)cb * td_.coBlock * wSlice], cp, pad);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
    }

    __aicore__ inline void RunRow(uint32_t b, uint32_t oh, uint32_t cb)
    {
        uint32_t cnt = BlockCount(cb);
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, cnt * td_.woAlign);
        AscendC::LocalTensor<T> wl = wBuf.Get<T>();
        AscendC::LocalTensor<uint32_t> tbl = tblBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> tap = tapBuf.Get<float>();

        for (uint32_t ci = 0; ci < td_.cin; ++ci) {
            for (uint32_t r = 0; r < td_.kh; ++r) {
                int32_t ih = (int32_t)oh * td_.stride - td_.padH + (int32_t)r * td_.dilH;
                if (ih < 0 || ih >= (int32_t)td_.h) continue;   // whole tap row is padding
                FetchRow(b, ci, (uint32_t)ih);
                AscendC::LocalTensor<T> raw = rowQ.DeQue<T>();
                AscendC::LocalTensor<float> rowF = Widen(raw);
                for (uint32_t k = 0; k < td_.kw; ++k) {
                    AscendC::Gather(tap, rowF, tbl[k * td_.woAlign], 0U, td_.woAlign);
                    uint32_t wIdx = (ci * td_.kh + r) * td_.kw + k;
                    for (uint32_t c = 0; c < cnt; ++c) {
                        float wv = static_cast<float>(wl.GetValue(c * wStride + wIdx));
                        AscendC::Axpy(acc[c * td_.woAlign], tap, wv, td_.woAlign);
                    }
                }
                rowQ.FreeTensor(raw);
            }
        }
        Flush(acc, b, oh, cb * td_.coBlock, cnt);
    }

    __aicore__ inline void FetchRow(uint32_t b, uint32_t ci, uint32_t ih)
    {
        AscendC::LocalTensor<T> row = rowQ.AllocTensor<T>();
        uint64_t off = (((uint64_t)b * td_.cin + ci) * td_.h + ih) * td_.w;
        uint32_t blk = 32 / sizeof(T);
        uint32_t wUp = (td_.w + blk - 1) / blk * blk;
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(td_.w * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(wUp - td_.w), static_cast<T>(0)};
        AscendC::DataCopyPad(row, xGm[off], cp, pad);
        rowQ.EnQue(row);
    }

    __aicore__ inline AscendC::LocalTensor<float> Widen(AscendC::LocalTensor<T>& raw)
    {
        AscendC::LocalTensor<float> f = rowF32Buf.Get<float>();
        uint32_t blk = 32 / sizeof(T);
        uint32_t wUp = (td_.w + blk - 1) / blk * blk;
        if constexpr (AscendC::IsSameType<T, float>::value) {
            AscendC::Adds(f, raw, 0.0f, wUp);
        } else {
            AscendC::Cast(f, raw, AscendC::RoundMode::CAST_NONE, wUp);
        }
        // zero slot (index w) for padded taps; wUp is 32B aligned in both widths
        uint32_t zUp = (td_.w + 7) / 8 * 8;
        AscendC::Duplicate(f[zUp], 0.0f, 8);
        return f;
    }

    __aicore__ inline void Flush(AscendC::LocalTensor<float>& acc, uint32_t b, uint32_t oh, uint32_t co0, uint32_t cnt)
    {
        for (uint32_t c = 0; c < cnt; ++c) {
            AscendC::LocalTensor<T> o = outQ.AllocTensor<T>();
            if constexpr (AscendC::IsSameType<T, float>::value) {
                AscendC::Adds(o, acc[c * td_.woAlign], 0.0f, td_.woAlign);
            } else {
                AscendC::Cast(o, acc[c * td_.woAlign], AscendC::RoundMode::CAST_ROUND, td_.woAlign);
            }
            outQ.EnQue(o);
            o = outQ.DeQue<T>();
            uint64_t off = (((uint64_t)b * td_.cout + co0 + c) * td_.ho + oh) * td_.wo;
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(td_.wo * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[off], o, cp);
            outQ.FreeTensor(o);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> rowQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowF32Buf, tapBuf, accBuf, wBuf, tblBuf;
    AscendC::GlobalTensor<T> xGm, wGm, yGm;
    SpacedTapConv2dTilingData td_;
    uint32_t rowLen, wSlice, wStride;
};

extern "C" __global__ __aicore__ void spaced_tap_conv2d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        SpacedTapConv2d<float> op;
        op.Init(x, weight, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        SpacedTapConv2d<half> op;
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

at::Tensor spaced_tap_conv2d_npu(const at::Tensor& x, const at::Tensor& weight, int64_t stride,
                                 std::vector<int64_t> padding, std::vector<int64_t> dilation)
{
    TORCH_CHECK(padding.size() == 2 && dilation.size() == 2, "padding/dilation must be (h, w)");
    int64_t padH = padding[0], padW = padding[1];
    int64_t dilH = dilation[0], dilW = dilation[1];
    int64_t ho = (x.size(2) + 2 * padH - dilH * (weight.size(2) - 1) - 1) / stride + 1;
    int64_t wo = (x.size(3) + 2 * padW - dilW * (weight.size(3) - 1) - 1) / stride + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(0), ho, wo}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnSpacedTapConv2dCustom, xc, wc, stride, padH, padW, dilH, dilW, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("spaced_tap_conv2d_custom", &spaced_tap_conv2d_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("spaced_tap_conv2d_custom", &spaced_tap_conv2d_npu, "dilated, padded conv2d (no bias)");
}
"""
