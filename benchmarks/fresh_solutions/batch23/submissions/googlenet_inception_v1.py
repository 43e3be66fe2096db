project_json_src = '''
[
    {
        "op": "ChannelBiasActivateCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float16", "float"]}
        ],
        "attr": [
            {"name": "with_relu", "param_type": "optional", "type": "bool", "default_value": "false"}
        ]
    }
]
'''

host_tiling_src = """
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelBiasActivateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planeLen);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, basePlanes);    // planes per core
  TILING_DATA_FIELD_DEF(uint32_t, bonusPlanes);   // first cores take one more
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelBiasActivateCustom, ChannelBiasActivateTilingData)
}
"""

host_operator_src = """
#include "channel_bias_activate_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// tiling key = dtypeBit * 2 + reluBit
enum BiasActKey : uint32_t {
    KEY_F32 = 0,
    KEY_F32_RELU = 1,
    KEY_F16 = 2,
    KEY_F16_RELU = 3,
};

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t aiv = plat.GetCoreNumAiv();

    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t hw = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        hw *= xs.GetDim(i);
    }

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elem = dt == ge::DT_FLOAT16 ? 2 : 4;
    // x / y queues, double buffered
    uint64_t tile = (ub - 4096) / (4 * elem);
    tile = tile / 32 * 32;
    tile = tile > 12288 ? 12288 : tile;
    uint32_t hwAligned = (hw + 31) / 32 * 32;
    uint32_t tileLen = static_cast<uint32_t>(tile < hwAligned ? tile : hwAligned);

    uint32_t planes = n * c;
    uint32_t used = planes < aiv ? planes : aiv;
    used = used == 0 ? 1 : used;

    ChannelBiasActivateTilingData td;
    td.set_channels(c);
    td.set_planes(planes);
    td.set_planeLen(hw);
    td.set_basePlanes(planes / used);
    td.set_bonusPlanes(planes % used);
    td.set_tileLen(tileLen);

    const bool *relu = context->GetAttrs()->GetAttrPointer<bool>(0);
    uint32_t key = (dt == ge::DT_FLOAT16 ? 2u : 0u) + ((relu != nullptr && *relu) ? 1u : 0u);
    context->SetTilingKey(key);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class ChannelBiasActivateCustom : public OpDef {
public:
    explicit ChannelBiasActivateCustom(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("with_relu").AttrType(OPTIONAL).Bool(false);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ChannelBiasActivateCustom);
}
"""

kernel_src = """
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Range of NCHW planes owned by one core.
struct PlaneRange {
    uint32_t first;
    uint32_t count;

    __aicore__ inline PlaneRange(uint32_t idx, uint32_t base, uint32_t bonus)
    {
        first = idx * base + (idx < bonus ? idx : bonus);
        count = base + (idx < bonus ? 1 : 0);
    }
};

// y[n, c, :] = act(x[n, c, :] + bias[c]); conv epilogue used after every conv.
template <typename T, bool RELU>
class ChannelBiasActivate {
public:
    __aicore__ inline ChannelBiasActivate() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const ChannelBiasActivateTilingData &td)
    {
        channels = td.channels;
        planeLen = td.planeLen;
        tileLen = td.tileLen;
        PlaneRange range(GetBlockIdx(), td.basePlanes, td.bonusPlanes);
        firstPlane = range.first;
        planeCount = range.count;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        biasGm.SetGlobalBuffer((__gm__ float *)bias, channels);
        pipe.InitBuffer(xQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(yQue, BUFFER_NUM, tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < planeCount; ++i) {
            uint32_t plane = firstPlane + i;
            T b = static_cast<T>(biasGm.GetValue(plane % channels));
            uint64_t planeOff = static_cast<uint64_t>(plane) * planeLen;
            for (uint32_t pos = 0; pos < planeLen; pos += tileLen) {
                uint32_t cnt = planeLen - pos < tileLen ? planeLen - pos : tileLen;
                CopyIn(planeOff + pos, cnt);
                Compute(b, cnt);
                CopyOut(planeOff + pos, cnt);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> xl = xQue.AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], params, padParams);
        xQue.EnQue(xl);
    }

    __aicore__ inline void Compute(T b, uint32_t cnt)
    {
        LocalTensor<T> xl = xQue.DeQue<T>();
        LocalTensor<T> yl = yQue.AllocTensor<T>();
        Adds(yl, xl, b, cnt);
        if constexpr (RELU) {
            Relu(yl, yl, cnt);
        }
        yQue.EnQue(yl);
        xQue.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t cnt)
    {
        LocalTensor<T> yl = yQue.DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], yl, params);
        yQue.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> biasGm;
    uint32_t channels = 0;
    uint32_t planeLen = 0;
    uint32_t tileLen = 0;
    uint32_t firstPlane = 0;
    uint32_t planeCount = 0;
};

template <typename T, bool RELU>
__aicore__ inline void RunBiasActivate(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const ChannelBiasActivateTilingData &td)
{
    ChannelBiasActivate<T, RELU> op;
    op.Init(x, bias, y, td);
    op.Process();
}

extern "C" __global__ __aicore__ void channel_bias_activate_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        RunBiasActivate<float, false>(x, bias, y, td);
    } else if (TILING_KEY_IS(1)) {
        RunBiasActivate<float, true>(x, bias, y, td);
    } else if (TILING_KEY_IS(2)) {
        RunBiasActivate<half, false>(x, bias, y, td);
    } else if (TILING_KEY_IS(3)) {
        RunBiasActivate<half, true>(x, bias, y, td);
    }
}
"""

python_bind_src = """
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

at::Tensor channel_bias_activate_impl_npu(const at::Tensor &x, const at::Tensor &bias, bool withRelu)
{
    at::Tensor xc = x.contiguous();
    at::Tensor b = bias.reshape({-1}).to(at::kFloat).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnChannelBiasActivateCustom, xc, b, withRelu, y);
    return y;
}

namespace {
// conv without bias on the cube (aten), bias + optional ReLU in the custom epilogue
at::Tensor ConvBiasAct(const at::Tensor &x, const at::Tensor &w, const at::Tensor &b,
                       int64_t stride, int64_t pad, bool relu)
{
    at::Tensor y = at::conv2d(x, w, {}, {stride, stride}, {pad, pad});
    return channel_bias_activate_impl_npu(y, b, relu);
}

// walks the flat parameter list: (weight, bias) pairs in module registration order
struct ParamCursor {
    const std::vector<at::Tensor> &p;
    size_t i = 0;
    explicit ParamCursor(const std::vector<at::Tensor> &params) : p(params) {}
    const at::Tensor &Next() { return p.at(i++); }
};

at::Tensor Inception(const at::Tensor &x, ParamCursor &pc)
{
    const at::Tensor &w1 = pc.Next(), &b1 = pc.Next();
    const at::Tensor &w3r = pc.Next(), &b3r = pc.Next();
    const at::Tensor &w3 = pc.Next(), &b3 = pc.Next();
    const at::Tensor &w5r = pc.Next(), &b5r = pc.Next();
    const at::Tensor &w5 = pc.Next(), &b5 = pc.Next();
    const at::Tensor &wp = pc.Next(), &bp = pc.Next();

    at::Tensor br1 = ConvBiasAct(x, w1, b1, 1, 0, false);
    at::Tensor br3 = ConvBiasAct(ConvBiasAct(x, w3r, b3r, 1, 0, false), w3, b3, 1, 1, false);
    at::Tensor br5 = ConvBiasAct(ConvBiasAct(x, w5r, b5r, 1, 0, false), w5, b5, 1, 2, false);
    at::Tensor pooled = at::max_pool2d(x, {3, 3}, {1, 1}, {1, 1});
    at::Tensor brp = ConvBiasAct(pooled, wp, bp, 1, 0, false);
    return at::cat({br1, br3, br5, brp}, 1);
}
}  // namespace

at::Tensor inception_v1_forward(const at::Tensor &x, const std::vector<at::Tensor> &params)
{
    TORCH_CHECK(params.size() == 116, "expected 3 stem convs, 9 inception modules and fc (116 tensors)");
    ParamCursor pc(params);
    // argument evaluation order is unspecified, so pull each pair explicitly
    const at::Tensor &c1w = pc.Next(), &c1b = pc.Next();
    const at::Tensor &c2w = pc.Next(), &c2b = pc.Next();
    const at::Tensor &c3w = pc.Next(), &c3b = pc.Next();
    at::Tensor h = ConvBiasAct(x, c1w, c1b, 2, 3, true);
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});
    h = ConvBiasAct(h, c2w, c2b, 1, 0, true);
    h = ConvBiasAct(h, c3w, c3b, 1, 1, true);
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});

    h = Inception(h, pc);   // 3a
    h = Inception(h, pc);   // 3b
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});
    for (int i = 0; i < 5; ++i) {
        h = Inception(h, pc);   // 4a .. 4e
    }
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});
    h = Inception(h, pc);   // 5a
    h = Inception(h, pc);   // 5b

    h = at::adaptive_avg_pool2d(h, {1, 1}).flatten(1);
    const at::Tensor &fcW = pc.Next();
    const at::Tensor &fcB = pc.Next();
    return at::linear(h, fcW, fcB);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("channel_bias_activate_custom", &channel_bias_activate_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("channel_bias_activate_custom", &channel_bias_activate_impl_npu, "act(x + bias[c])");
    m.def("inception_v1_forward", &inception_v1_forward, "GoogLeNet (Inception v1) forward");
}
"""
