project_json_src='''
[
    {
        "op": "ReluChannelConcatCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "left",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "right",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "out",
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
BEGIN_TILING_DATA_DEF(ReluChannelConcatTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, leftLen);     // C_left * H * W per sample
  TILING_DATA_FIELD_DEF(uint32_t, rightLen);    // C_right * H * W per sample
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, leftTiles);
  TILING_DATA_FIELD_DEF(uint32_t, rightTiles);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReluChannelConcatCustom, ReluChannelConcatTilingData)
}
"""

host_operator_src="""
#include "relu_channel_concat_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TILE_BYTES = 32 * 1024;

inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

uint32_t PerSample(const gert::Shape& s)
{
    uint32_t v = 1;
    for (size_t i = 1; i < s.GetDimNum(); ++i) {
        v *= s.GetDim(i);
    }
    return v;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& ls = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& rs = context->GetInputShape(1)->GetOriginShape();
    if (ls.GetDimNum() != rs.GetDimNum() || ls.GetDim(0) != rs.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t elemBytes = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t tileLen = TILE_BYTES / elemBytes;

    ReluChannelConcatTilingData td;
    uint32_t batch = ls.GetDim(0);
    uint32_t leftLen = PerSample(ls);
    uint32_t rightLen = PerSample(rs);
    uint32_t leftTiles = CeilDiv(leftLen, tileLen);
    uint32_t rightTiles = CeilDiv(rightLen, tileLen);
    uint32_t units = batch * (leftTiles + rightTiles);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t perCore = CeilDiv(units, plat.GetCoreNumAiv());

    td.set_batch(batch);
    td.set_leftLen(leftLen);
    td.set_rightLen(rightLen);
    td.set_tileLen(tileLen);
    td.set_leftTiles(leftTiles);
    td.set_rightTiles(rightTiles);
    td.set_totalUnits(units);
    td.set_unitsPerCore(perCore);

    context->SetBlockDim(CeilDiv(units, perCore));
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
    const gert::Shape* ls = context->GetInputShape(0);
    const gert::Shape* rs = context->GetInputShape(1);
    gert::Shape* os = context->GetOutputShape(0);
    *os = *ls;
    os->SetDim(1, ls->GetDim(1) + rs->GetDim(1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ReluChannelConcatCustom : public OpDef {
public:
    explicit ReluChannelConcatCustom(const char* name) : OpDef(name)
    {
        this->Input("left").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("right").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReluChannelConcatCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Location of one work unit: which source, where it reads, where it lands in the output.
struct ConcatSpan {
    bool fromLeft;
    uint64_t srcOff;
    uint64_t dstOff;
    uint32_t len;
};

__aicore__ inline ConcatSpan LocateUnit(const ReluChannelConcatTilingData& t, uint32_t unit)
{
    uint32_t perSample = t.leftTiles + t.rightTiles;
    uint32_t n = unit / perSample;
    uint32_t r = unit % perSample;
    uint64_t outRow = (uint64_t)n * (t.leftLen + t.rightLen);
    ConcatSpan s;
    s.fromLeft = r < t.leftTiles;
    if (s.fromLeft) {
        uint32_t off = r * t.tileLen;
        s.len = off + t.tileLen <= t.leftLen ? t.tileLen : t.leftLen - off;
        s.srcOff = (uint64_t)n * t.leftLen + off;
        s.dstOff = outRow + off;
    } else {
        uint32_t off = (r - t.leftTiles) * t.tileLen;
        s.len = off + t.tileLen <= t.rightLen ? t.tileLen : t.rightLen - off;
        s.srcOff = (uint64_t)n * t.rightLen + off;
        s.dstOff = outRow + t.leftLen + off;
    }
    return s;
}

// out[n] = relu(cat(left[n], right[n])) along the channel axis (both inputs contiguous NCHW)
template <typename T>
class ReluChannelConcat {
public:
    __aicore__ inline ReluChannelConcat() {}

    __aicore__ inline void Init(GM_ADDR left, GM_ADDR right, GM_ADDR out, const ReluChannelConcatTilingData& td)
    {
        t = td;
        lGm.SetGlobalBuffer((__gm__ T*)left, (uint64_t)t.batch * t.leftLen);
        rGm.SetGlobalBuffer((__gm__ T*)right, (uint64_t)t.batch * t.rightLen);
        oGm.SetGlobalBuffer((__gm__ T*)out, (uint64_t)t.batch * (t.leftLen + t.rightLen));
        pipe.InitBuffer(inQ, BUFFER_NUM, t.tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, t.tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        uint32_t begin = GetBlockIdx() * t.unitsPerCore;
        uint32_t end = begin + t.unitsPerCore < t.totalUnits ? begin + t.unitsPerCore : t.totalUnits;
        for (uint32_t u = begin; u < end; ++u) {
            ConcatSpan s = LocateUnit(t, u);
            CopyIn(s);
            Compute(s.len);
            CopyOut(s);
        }
    }

private:
    __aicore__ inline void CopyIn(const ConcatSpan& s)
    {
        LocalTensor<T> x = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(s.len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        if (s.fromLeft) {
            DataCopyPad(x, lGm[s.srcOff], cp, pad);
        } else {
            DataCopyPad(x, rGm[s.srcOff], cp, pad);
        }
        inQ.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<T> x = inQ.DeQue<T>();
        LocalTensor<T> y = outQ.AllocTensor<T>();
        Relu(y, x, len);
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(const ConcatSpan& s)
    {
        LocalTensor<T> y = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(s.len * sizeof(T)), 0, 0, 0};
        DataCopyPad(oGm[s.dstOff], y, cp);
        outQ.FreeTensor(y);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<T> lGm, rGm, oGm;
    ReluChannelConcatTilingData t;
};

extern "C" __global__ __aicore__ void relu_channel_concat_custom(GM_ADDR left, GM_ADDR right, GM_ADDR out,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ReluChannelConcat<DTYPE_LEFT> op;
    op.Init(left, right, out, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

at::Tensor relu_channel_concat_impl_npu(const at::Tensor& left, const at::Tensor& right)
{
    at::Tensor l = left.contiguous();
    at::Tensor r = right.contiguous();
    std::vector<int64_t> shape(l.sizes().begin(), l.sizes().end());
    shape[1] += r.size(1);
    at::Tensor out = at::empty(shape, l.options());
    EXEC_NPU_CMD(aclnnReluChannelConcatCustom, l, r, out);
    return out;
}

// Fire module: squeeze 1x1 + ReLU, then both expand convs fused with ReLU + concat
static at::Tensor fire(const at::Tensor& x, const std::vector<at::Tensor>& p, size_t i)
{
    at::Tensor s = at::relu_(at::conv2d(x, p[i], p[i + 1]));
    at::Tensor e1 = at::conv2d(s, p[i + 2], p[i + 3]);
    at::Tensor e3 = at::conv2d(s, p[i + 4], p[i + 5], {1, 1}, {1, 1});
    return relu_channel_concat_impl_npu(e1, e3);
}

// params: conv1 (w, b), 8 fire modules x (sq_w, sq_b, e1_w, e1_b, e3_w, e3_b), classifier (w, b)
at::Tensor squeeze_net_forward_npu(const at::Tensor& x, const std::vector<at::Tensor>& params)
{
    TORCH_CHECK(params.size() == 52, "expected 52 parameter tensors");
    at::Tensor h = at::relu_(at::conv2d(x, params[0], params[1], {2, 2}));
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {0, 0}, {1, 1}, true);
    size_t idx = 2;
    for (int m = 0; m < 8; ++m) {
        h = fire(h, params, idx);
        idx += 6;
        if (m == 2 || m == 6) {
            h = at::max_pool2d(h, {3, 3}, {2, 2}, {0, 0}, {1, 1}, true);
        }
    }
    h = at::relu_(at::conv2d(h, params[idx], params[idx + 1]));
    h = at::adaptive_avg_pool2d(h, {1, 1});
    return at::flatten(h, 1);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("relu_channel_concat_custom", &relu_channel_concat_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("relu_channel_concat_custom", &relu_channel_concat_impl_npu, "relu(cat([a, b], dim=1))");
    m.def("squeeze_net_forward", &squeeze_net_forward_npu, "SqueezeNet forward with fused fire-module epilogue");
}
"""
