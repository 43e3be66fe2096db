project_json_src='''
[
    {
        "op": "StackedMaxPoolChannelSumCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "pool_a", "param_type": "optional", "type": "int", "default_value": "2"},
            {"name": "pool_b", "param_type": "optional", "type": "int", "default_value": "3"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StackedMaxPoolChannelSumTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, rowPad);
  TILING_DATA_FIELD_DEF(uint32_t, linesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, totalLines);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StackedMaxPoolChannelSumCustom, StackedMaxPoolChannelSumTilingData)
}
"""

host_operator_src="""
#include "stacked_max_pool_channel_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
// MaxPool(k=a, s=a) followed by MaxPool(k=b, s=b) equals one MaxPool(k=a*b, s=a*b)
// over floor(floor(L/a)/b) outputs, because every merged window stays inside the first pool's range.
inline uint32_t PooledLen(uint32_t len, uint32_t a, uint32_t b)
{
    return (len / a) / b;
}
inline uint32_t AlignUp(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    StackedMaxPoolChannelSumTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetOriginShape();
    if (s.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t a = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t b = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t n = s.GetDim(0), c = s.GetDim(1), d = s.GetDim(2), h = s.GetDim(3), w = s.GetDim(4);
    uint32_t od = PooledLen(d, a, b), oh = PooledLen(h, a, b), ow = PooledLen(w, a, b);
    uint32_t win = a * b;

    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t rowPad = AlignUp(ow * win, 32 / typeSize);   // each copied line starts on a 32 B boundary in UB

    uint32_t totalLines = n * od * oh;   // one "line" = all ow outputs of one (n, od, oh)
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = platform.GetCoreNumAiv();
    uint32_t linesPerCore = (totalLines + cores - 1) / cores;
    if (linesPerCore == 0) {
        linesPerCore = 1;
    }

    td.set_batch(n);
    td.set_channels(c);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_win(win);
    td.set_rowPad(rowPad);
    td.set_linesPerCore(linesPerCore);
    td.set_totalLines(totalLines);

    context->SetTilingKey(typeSize == 2 ? 1 : 0);
    context->SetBlockDim((totalLines + linesPerCore - 1) / linesPerCore);
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
    const gert::Shape* x = context->GetInputShape(0);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t a = *attrs->GetAttrPointer<int64_t>(0);
    int64_t b = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, 1);
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, (x->GetDim(i) / a) / b);
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
class StackedMaxPoolChannelSumCustom : public OpDef {
public:
    explicit StackedMaxPoolChannelSumCustom(const char* name) : OpDef(name)
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
        this->Attr("pool_a").AttrType(OPTIONAL).Int(2);
        this->Attr("pool_b").AttrType(OPTIONAL).Int(3);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StackedMaxPoolChannelSumCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Element-wise max of `rows` consecutive padded lines into line 0.
// Halves the block while the count is even so most work is done in long vector ops.
template <typename T>
__aicore__ inline void FoldLinesMax(const LocalTensor<T>& blk, uint32_t rows, uint32_t rowPad)
{
    while (rows > 1 && (rows % 2 == 0)) {
        uint32_t half = rows / 2;
        Max(blk, blk, blk[half * rowPad], half * rowPad);
        rows = half;
    }
    for (uint32_t r = 1; r < rows; ++r) {
        Max(blk, blk, blk[r * rowPad], rowPad);
    }
}

template <typename T>
class StackedMaxPoolChannelSum {
public:
    __aicore__ inline StackedMaxPoolChannelSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const StackedMaxPoolChannelSumTilingData& t)
    {
        td = t;
        lineBegin = GetBlockIdx() * td.linesPerCore;
        lineEnd = lineBegin + td.linesPerCore;
        if (lineEnd > td.totalLines) {
            lineEnd = td.totalLines;
        }
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        outPad = (td.outW + 15) / 16 * 16;
        // one window block: win (depth) x win (height) lines of rowPad elements
        pipe.InitBuffer(blkQue, BUFFER_NUM, td.win * td.win * td.rowPad * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, outPad * sizeof(T));
        pipe.InitBuffer(accBuf, outPad * sizeof(float));
        pipe.InitBuffer(pooledBuf, outPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t line = lineBegin; line < lineEnd; ++line) {
            uint32_t oh = line % td.outH;
            uint32_t od = (line / td.outH) % td.outD;
            uint32_t n = line / (td.outH * td.outD);
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, outPad);
            for (uint32_t c = 0; c < td.channels; ++c) {
                LoadBlock(n, c, od, oh);
                ReduceBlock(acc);
            }
            StoreLine(line, acc);
        }
    }

private:
    __aicore__ inline void LoadBlock(uint32_t n, uint32_t c, uint32_t od, uint32_t oh)
    {
        LocalTensor<T> blk = blkQue.AllocTensor<T>();
        uint64_t plane = static_cast<uint64_t>(td.inH) * td.inW;
        uint64_t base = (static_cast<uint64_t>(n) * td.channels + c) * td.inD * plane;
        uint32_t usedW = td.outW * td.win;
        // win lines of one depth slice per call; line stride in GM is inW, padded to rowPad in UB
        DataCopyExtParams cp{static_cast<uint16_t>(td.win), static_cast<uint32_t>(usedW * sizeof(T)),
                             static_cast<uint32_t>((td.inW - usedW) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, static_cast<T>(0)};
        for (uint32_t dz = 0; dz < td.win; ++dz) {
            uint64_t src = base + static_cast<uint64_t>(od * td.win + dz) * plane +
                           static_cast<uint64_t>(oh * td.win) * td.inW;
            DataCopyPad(blk[dz * td.win * td.rowPad], xGm[src], cp, pad);
        }
        blkQue.EnQue(blk);
    }

    __aicore__ inline void ReduceBlock(const LocalTensor<float>& acc)
    {
        LocalTensor<T> blk = blkQue.DeQue<T>();
        FoldLinesMax(blk, td.win * td.win, td.rowPad);
        event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vs);
        WaitFlag<HardEvent::V_S>(vs);
        // max over each group of win columns
        LocalTensor<float> pooled = pooledBuf.Get<float>();
        for (uint32_t ow = 0; ow < td.outW; ++ow) {
            float m = static_cast<float>(blk.GetValue(ow * td.win));
            for (uint32_t k = 1; k < td.win; ++k) {
                float v = static_cast<float>(blk.GetValue(ow * td.win + k));
                m = v > m ? v : m;
            }
            pooled.SetValue(ow, m);
        }
        blkQue.FreeTensor(blk);
        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Add(acc, acc, pooled, td.outW);
    }

    __aicore__ inline void StoreLine(uint32_t line, const LocalTensor<float>& acc)
    {
        LocalTensor<T> o = outQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(o, acc, outPad);
        } else {
            Cast(o, acc, RoundMode::CAST_ROUND, outPad);
        }
        outQue.EnQue(o);
        o = outQue.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(td.outW * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(line) * td.outW], o, cp);
        outQue.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> blkQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> accBuf, pooledBuf;
    GlobalTensor<T> xGm, yGm;
    StackedMaxPoolChannelSumTilingData td;
    uint32_t lineBegin, lineEnd, outPad;
};

extern "C" __global__ __aicore__ void stacked_max_pool_channel_sum_custom(GM_ADDR x, GM_ADDR y,
                                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        StackedMaxPoolChannelSum<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        StackedMaxPoolChannelSum<half> op;
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

// conv_transpose3d (vendor) -> maxpool(a) -> maxpool(b) -> sum over channels (custom, fused)
at::Tensor deconv3d_pool_pool_csum_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                            int64_t stride, int64_t padding, int64_t poolA, int64_t poolB)
{
    at::Tensor y = at::conv_transpose3d(x, weight, bias, {stride, stride, stride}, {padding, padding, padding})
                       .contiguous();
    at::Tensor out = at::empty({y.size(0), 1, (y.size(2) / poolA) / poolB, (y.size(3) / poolA) / poolB,
                                (y.size(4) / poolA) / poolB}, y.options());
    EXEC_NPU_CMD(aclnnStackedMaxPoolChannelSumCustom, y, poolA, poolB, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("deconv3d_pool_pool_csum", &deconv3d_pool_pool_csum_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("deconv3d_pool_pool_csum", &deconv3d_pool_pool_csum_impl_npu, "ConvTranspose3d + MaxPool3d x2 + channel sum");
}
"""
