project_json_src='''
[
    {
        "op": "ChannelScaleShiftReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "scale", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]},
            {"name": "shift", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
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
BEGIN_TILING_DATA_DEF(ChannelScaleShiftReluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // N * C planes
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);       // H * W
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsExtra);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);        // elements per UB chunk
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelScaleShiftReluCustom, ChannelScaleShiftReluTilingData)
}
"""

host_operator_src="""
#include "channel_scale_shift_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t CHUNK_BYTES = 24 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ChannelScaleShiftReluTilingData td;
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0);
    uint32_t c = s.GetDim(1);
    uint32_t hw = 1;
    for (size_t i = 2; i < s.GetDimNum(); ++i) hw *= s.GetDim(i);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    // chunk is sized in fp32 terms since half inputs are widened before the math
    uint32_t chunk = CHUNK_BYTES / sizeof(float);
    uint32_t hwAligned = (hw + 15) / 16 * 16;
    if (chunk > hwAligned) chunk = hwAligned;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t rows = n * c;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) cores = rows;
    if (cores == 0) cores = 1;

    td.set_channels(c);
    td.set_rows(rows);
    td.set_rowLen(hw);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsExtra(rows % cores);
    td.set_chunk(chunk);

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelScaleShiftReluCustom : public OpDef {
public:
    explicit ChannelScaleShiftReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("shift").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelScaleShiftReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = max(x * a + b, 0) on fp32 data
__aicore__ inline void AffineRelu(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                                  float a, float b, uint32_t n)
{
    Muls(dst, src, a, n);
    Adds(dst, dst, b, n);
    Relu(dst, dst, n);
}

template <typename T>
class ChannelScaleShiftRelu {
public:
    __aicore__ inline ChannelScaleShiftRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR shift, GM_ADDR y,
                                const ChannelScaleShiftReluTilingData& td)
    {
        channels = td.channels;
        rowLen = td.rowLen;
        chunk = td.chunk;
        uint32_t id = GetBlockIdx();
        rowBegin = id * td.rowsPerCore + (id < td.rowsExtra ? id : td.rowsExtra);
        rowEnd = rowBegin + td.rowsPerCore + (id < td.rowsExtra ? 1 : 0);

        src.SetGlobalBuffer((__gm__ T*)x);
        dst.SetGlobalBuffer((__gm__ T*)y);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale);
        shiftGm.SetGlobalBuffer((__gm__ float*)shift);

        pipe.InitBuffer(qx, BUFFER_NUM, chunk * sizeof(T));
        pipe.InitBuffer(qy, BUFFER_NUM, chunk * sizeof(T));
        if constexpr (!std::is_same<T, float>::value) {
            pipe.InitBuffer(wide, chunk * sizeof(float));   // fp32 staging for half data
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            uint32_t ch = r % channels;
            float a = scaleGm.GetValue(ch);
            float b = shiftGm.GetValue(ch);
            uint64_t base = static_cast<uint64_t>(r) * rowLen;
            for (uint32_t off = 0; off < rowLen; off += chunk) {
                uint32_t cnt = rowLen - off < chunk ? rowLen - off : chunk;
                Load(base + off, cnt);
                Calc(a, b, cnt);
                Store(base + off, cnt);
            }
        }
    }

private:
    __aicore__ inline void Load(uint64_t pos, uint32_t cnt)
    {
        LocalTensor<T> t = qx.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(t, src[pos], cp, pad);
        qx.EnQue(t);
    }

    __aicore__ inline void Calc(float a, float b, uint32_t cnt)
    {
        LocalTensor<T> in = qx.DeQue<T>();
        LocalTensor<T> out = qy.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AffineRelu(out, in, a, b, cnt);
        } else {
            LocalTensor<float> w = wide.Get<float>();
            Cast(w, in, RoundMode::CAST_NONE, cnt);
            AffineRelu(w, w, a, b, cnt);
            Cast(out, w, RoundMode::CAST_ROUND, cnt);
        }
        qy.EnQue(out);
        qx.FreeTensor(in);
    }

    __aicore__ inline void Store(uint64_t pos, uint32_t cnt)
    {
        LocalTensor<T> out = qy.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(dst[pos], out, cp);
        qy.FreeTensor(out);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> qx;
    TQue<TPosition::VECOUT, BUFFER_NUM> qy;
    TBuf<TPosition::VECCALC> wide;
    GlobalTensor<T> src, dst;
    GlobalTensor<float> scaleGm, shiftGm;
    uint32_t channels, rowLen, chunk, rowBegin, rowEnd;
};

extern "C" __global__ __aicore__ void channel_scale_shift_relu_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR shift,
                                                                      GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        ChannelScaleShiftRelu<float> k;
        k.Init(x, scale, shift, y, td);
        k.Process();
    } else if (TILING_KEY_IS(2)) {
        ChannelScaleShiftRelu<half> k;
        k.Init(x, scale, shift, y, td);
        k.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>
#include <tuple>

at::Tensor channel_scale_shift_relu_impl_npu(const at::Tensor& x, const at::Tensor& scale, const at::Tensor& shift)
{
    at::Tensor xc = x.contiguous();
    at::Tensor s = scale.to(at::kFloat).contiguous();
    at::Tensor b = shift.to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnChannelScaleShiftReluCustom, xc, s, b, y);
    return y;
}

// BatchNorm folded into a per-channel affine; batch statistics in training mode
static at::Tensor bn_relu(const at::Tensor& x, const std::vector<at::Tensor>& p, size_t& k, bool training)
{
    const at::Tensor& w = p[k];
    const at::Tensor& b = p[k + 1];
    const at::Tensor& rm = p[k + 2];
    const at::Tensor& rv = p[k + 3];
    k += 4;
    at::Tensor mean, var;
    if (training) {
        auto mv = at::var_mean(x, {0, 2, 3}, /*correction=*/0, /*keepdim=*/false);
        var = std::get<0>(mv);
        mean = std::get<1>(mv);
    } else {
        mean = rm;
        var = rv;
    }
    at::Tensor scale = w / at::sqrt(var + 1e-5);
    at::Tensor shift = b - mean * scale;
    return channel_scale_shift_relu_impl_npu(x, scale, shift);
}

// params in module order: stem conv, stem bn, per dense layer (bn, conv), per transition (bn, conv),
// final bn, classifier w, b
at::Tensor densenet201_forward(const at::Tensor& x, const std::vector<at::Tensor>& params, bool training)
{
    const int64_t blocks[4] = {6, 12, 48, 32};
    size_t k = 0;
    at::Tensor h = at::conv2d(x, params[k++], {}, 2, 3);
    h = bn_relu(h, params, k, training);
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});

    for (int bi = 0; bi < 4; ++bi) {
        std::vector<at::Tensor> feats{h};
        for (int64_t l = 0; l < blocks[bi]; ++l) {
            at::Tensor a = bn_relu(h, params, k, training);
            at::Tensor nf = at::conv2d(a, params[k++], {}, 1, 1);
            feats.push_back(nf);
            h = at::cat(feats, 1);
        }
        if (bi != 3) {
            at::Tensor a = bn_relu(h, params, k, training);
            a = at::conv2d(a, params[k++]);
            h = at::avg_pool2d(a, {2, 2}, {2, 2});
        }
    }
    h = bn_relu(h, params, k, training);
    h = at::adaptive_avg_pool2d(h, {1, 1}).flatten(1);
    return at::linear(h, params[k], params[k + 1]);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_scale_shift_relu_custom", &channel_scale_shift_relu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_scale_shift_relu_custom", &channel_scale_shift_relu_impl_npu, "relu(x * scale[c] + shift[c])");
    m.def("densenet201_forward", &densenet201_forward, "DenseNet-201 forward");
}
"""
