project_json_src='''
[
    {
        "op": "LeakyScaledCubeMaxCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "multiplier", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "attr": [
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.2"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LeakyScaledCubeMaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, slabAlign);     // 2*H*W padded to 32B multiple (two depth planes)
  TILING_DATA_FIELD_DEF(uint32_t, planeAlign);    // H*W padded
  TILING_DATA_FIELD_DEF(uint32_t, outAlign);      // outH*outW padded
  TILING_DATA_FIELD_DEF(uint32_t, maskWords);
  TILING_DATA_FIELD_DEF(uint32_t, slicesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, slicesLeft);
  TILING_DATA_FIELD_DEF(float, slope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyScaledCubeMaxCustom, LeakyScaledCubeMaxTilingData)
}
"""

host_operator_src="""
#include "leaky_scaled_cube_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t RoundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    if (xs.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    const float *slopeAttr = context->GetAttrs()->GetAttrPointer<float>(0);
    uint32_t n = static_cast<uint32_t>(xs.GetDim(0));
    uint32_t c = static_cast<uint32_t>(xs.GetDim(1));
    uint32_t d = static_cast<uint32_t>(xs.GetDim(2));
    uint32_t h = static_cast<uint32_t>(xs.GetDim(3));
    uint32_t w = static_cast<uint32_t>(xs.GetDim(4));
    uint32_t od = d / 2, oh = h / 2, ow = w / 2;
    if (od == 0 || oh == 0 || ow == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hw = h * w;
    uint32_t slabAlign = RoundUp(2 * hw, 16);
    uint32_t planeAlign = RoundUp(hw, 16);
    uint32_t outAlign = RoundUp(oh * ow, 16);
    uint32_t maskWords = RoundUp((hw + 31) / 32, 8);

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t eb = dt == ge::DT_FLOAT16 ? 2 : 4;
    // slab queue x2 (T), fp32 slab, fp32 row-pair buffers, out queue x2 (T), two row masks
    uint64_t need = 2ULL * slabAlign * eb + slabAlign * 4ULL + 3ULL * planeAlign * 4 + 2ULL * outAlign * eb +
                    2ULL * maskWords * 4 + 512;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    if (need > ub) {
        return ge::GRAPH_FAILED;
    }

    uint32_t slices = n * c * od;
    uint32_t cores = plat.GetCoreNumAiv();
    cores = cores == 0 ? 1 : cores;
    cores = slices < cores ? slices : cores;

    LeakyScaledCubeMaxTilingData td;
    td.set_channels(c);
    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_slabAlign(slabAlign);
    td.set_planeAlign(planeAlign);
    td.set_outAlign(outAlign);
    td.set_maskWords(maskWords);
    td.set_slicesPerCore(slices / cores);
    td.set_slicesLeft(slices % cores);
    td.set_slope(slopeAttr ? *slopeAttr : 0.2f);

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
    const gert::Shape *xs = context->GetInputShape(0);
    gert::Shape *ys = context->GetOutputShape(0);
    *ys = *xs;
    for (size_t i = 2; i < 5; ++i) {
        ys->SetDim(i, xs->GetDim(i) / 2);
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
class LeakyScaledCubeMaxCustom : public OpDef {
public:
    explicit LeakyScaledCubeMaxCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("multiplier").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.2f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LeakyScaledCubeMaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint8_t EVEN_LANES = 1;   // built-in GatherMask pattern 0b01...
constexpr uint8_t ODD_LANES = 2;    // built-in GatherMask pattern 0b10...

struct CubeMaxGeom {
    uint32_t channels, inD, inH, inW, outD, outH, outW;
    uint32_t slabAlign, planeAlign, outAlign, maskWords;
    uint32_t slicesPerCore, slicesLeft;
    float slope;
};

// Row-selection pattern over an H x W plane: bit set for row 2*oh + parity, columns [0, 2*outW).
__aicore__ inline void BuildRowParityMask(const LocalTensor<uint32_t> &m, const CubeMaxGeom &g, uint32_t parity)
{
    for (uint32_t i = 0; i < g.maskWords; ++i) {
        m.SetValue(i, 0u);
    }
    for (uint32_t oh = 0; oh < g.outH; ++oh) {
        uint32_t rowStart = (2 * oh + parity) * g.inW;
        for (uint32_t x = 0; x < 2 * g.outW; ++x) {
            uint32_t bit = rowStart + x;
            m.SetValue(bit >> 5, m.GetValue(bit >> 5) | (1u << (bit & 31u)));
        }
    }
}

template <typename T>
class LeakyScaledCubeMax {
public:
    __aicore__ inline LeakyScaledCubeMax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mult, GM_ADDR y, const CubeMaxGeom &geom)
    {
        g = geom;
        uint32_t b = GetBlockIdx();
        sliceBegin = b * g.slicesPerCore + (b < g.slicesLeft ? b : g.slicesLeft);
        sliceCount = g.slicesPerCore + (b < g.slicesLeft ? 1 : 0);
        hw = g.inH * g.inW;
        ohw = g.outH * g.outW;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        yGm.SetGlobalBuffer((__gm__ T *)y);
        mGm.SetGlobalBuffer((__gm__ float *)mult, g.channels);

        pipe.InitBuffer(slabQ, BUFFER_NUM, g.slabAlign * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, g.outAlign * sizeof(T));
        pipe.InitBuffer(slabF, g.slabAlign * sizeof(float));
        pipe.InitBuffer(depthMaxF, g.planeAlign * sizeof(float));
        pipe.InitBuffer(rowsF, 2 * g.planeAlign * sizeof(float));   // even-row / odd-row gathers
        pipe.InitBuffer(maskBuf, 2 * g.maskWords * sizeof(uint32_t));

        LocalTensor<uint32_t> masks = maskBuf.Get<uint32_t>();
        BuildRowParityMask(masks, g, 0);
        BuildRowParityMask(masks[g.maskWords], g, 1);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < sliceCount; ++i) {
            uint32_t s = sliceBegin + i;
            uint32_t od = s % g.outD;
            uint32_t nc = s / g.outD;            // n * channels + c
            uint32_t ch = nc % g.channels;
            uint64_t inOff = (static_cast<uint64_t>(nc) * g.inD + 2 * od) * hw;
            uint64_t outOff = (static_cast<uint64_t>(nc) * g.outD + od) * ohw;
            FetchSlab(inOff);
            Compute(ch);
            Flush(outOff);
        }
    }

private:
    // the two depth planes of one pooling window are adjacent in GM: one burst
    __aicore__ inline void FetchSlab(uint64_t off)
    {
        LocalTensor<T> s = slabQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(2 * hw * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(s, xGm[off], cp, pad);
        slabQ.EnQue(s);
    }

    __aicore__ inline void Compute(uint32_t ch)
    {
        LocalTensor<T> s = slabQ.DeQue<T>();
        LocalTensor<float> v = slabF.Get<float>();
        uint32_t cnt = 2 * hw;
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(v, s, g.slabAlign);
        } else {
            Cast(v, s, RoundMode::CAST_NONE, cnt);
        }
        PipeBarrier<PIPE_V>();
        slabQ.FreeTensor(s);

        // leaky -> per-channel multiplier -> leaky
        LeakyRelu(v, v, g.slope, cnt);
        PipeBarrier<PIPE_V>();
        Muls(v, v, mGm.GetValue(ch), cnt);
        PipeBarrier<PIPE_V>();
        LeakyRelu(v, v, g.slope, cnt);
        PipeBarrier<PIPE_V>();

        // depth pair
        LocalTensor<float> dmax = depthMaxF.Get<float>();
        LocalTensor<float> second = v[hw];
        if ((hw % 8) != 0) {
            // second plane is not 32B aligned in UB; realign before the vector Max
            LocalTensor<float> rows = rowsF.Get<float>();
            for (uint32_t k = 0; k < hw; ++k) {
                rows.SetValue(k, v.GetValue(hw + k));
            }
            second = rows;
        }
        Max(dmax, v, second, hw);
        PipeBarrier<PIPE_V>();

        // height pair: gather even rows and odd rows (each outH x 2*outW), take max
        LocalTensor<float> rows = rowsF.Get<float>();
        LocalTensor<uint32_t> masks = maskBuf.Get<uint32_t>();
        uint64_t kept = 0;
        GatherMaskParams gp{1, 1, 0, 0};
        GatherMask(rows, dmax, masks, true, hw, gp, kept);
        GatherMask(rows[g.planeAlign], dmax, masks[g.maskWords], true, hw, gp, kept);
        PipeBarrier<PIPE_V>();
        uint32_t pairLen = g.outH * 2 * g.outW;
        Max(dmax, rows, rows[g.planeAlign], pairLen);
        PipeBarrier<PIPE_V>();

        // width pair: even / odd lanes of each 2*outW row, rows are even-length so lanes stay in phase
        GatherMask(rows, dmax, EVEN_LANES, true, pairLen, gp, kept);
        GatherMask(rows[g.planeAlign], dmax, ODD_LANES, true, pairLen, gp, kept);
        PipeBarrier<PIPE_V>();
        Max(rows, rows, rows[g.planeAlign], ohw);
        PipeBarrier<PIPE_V>();

        LocalTensor<T> o = outQ.AllocTensor<T>();
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(o, rows, g.outAlign);
        } else {
            Cast(o, rows, RoundMode::CAST_ROUND, ohw);
        }
        outQ.EnQue(o);
    }

    __aicore__ inline void Flush(uint64_t off)
    {
        LocalTensor<T> o = outQ.DeQue<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(ohw * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[off], o, cp);
        outQ.FreeTensor(o);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> slabQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<QuePosition::VECCALC> slabF, depthMaxF, rowsF, maskBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> mGm;
    CubeMaxGeom g;
    uint32_t sliceBegin = 0;
    uint32_t sliceCount = 0;
    uint32_t hw = 0;
    uint32_t ohw = 0;
};

extern "C" __global__ __aicore__ void leaky_scaled_cube_max_custom(GM_ADDR x, GM_ADDR multiplier, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    CubeMaxGeom g{td.channels, td.inD, td.inH, td.inW, td.outD, td.outH, td.outW,
                  td.slabAlign, td.planeAlign, td.outAlign, td.maskWords,
                  td.slicesPerCore, td.slicesLeft, td.slope};
    if (TILING_KEY_IS(1)) {
        LeakyScaledCubeMax<half> op;
        op.Init(x, multiplier, y, g);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        LeakyScaledCubeMax<float> op;
        op.Init(x, multiplier, y, g);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose3d via aten (cube unit); LeakyReLU, channel multiplier, LeakyReLU and the
// 2x2x2 max-pool are fused in the custom vector kernel.
at::Tensor leaky_scaled_cube_max_npu(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias,
                                     int64_t stride, int64_t padding, int64_t output_padding,
                                     const at::Tensor &multiplier, double negative_slope)
{
    at::Tensor h = at::conv_transpose3d(x, weight, bias, {stride, stride, stride}, {padding, padding, padding},
                                        {output_padding, output_padding, output_padding}).contiguous();
    at::Tensor m = multiplier.reshape({-1}).to(at::kFloat).contiguous();
    at::Tensor y = at::empty({h.size(0), h.size(1), h.size(2) / 2, h.size(3) / 2, h.size(4) / 2}, h.options());
    float slope = static_cast<float>(negative_slope);
    EXEC_NPU_CMD(aclnnLeakyScaledCubeMaxCustom, h, m, slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("leaky_scaled_cube_max_custom", &leaky_scaled_cube_max_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("leaky_scaled_cube_max_custom", &leaky_scaled_cube_max_npu,
          "conv_transpose3d + leaky_relu + channel scale + leaky_relu + maxpool3d(2)");
}
"""
