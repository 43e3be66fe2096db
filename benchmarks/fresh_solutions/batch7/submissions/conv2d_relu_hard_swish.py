project_json_src='''
[
    {
        "op": "SmallCinConvHswishCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SmallCinConvHswishTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, lineLen);      // outW rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, bandRows);     // output rows per band
  TILING_DATA_FIELD_DEF(uint32_t, bandsPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, bandsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SmallCinConvHswishCustom, SmallCinConvHswishTilingData)
}
"""

host_operator_src="""
#include "small_cin_conv_hswish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    uint32_t oh = h - kh + 1;
    uint32_t ow = w - kw + 1;
    uint32_t lineLen = (ow + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint64_t budget = ubSize - 16 * 1024;

    // Fixed: all weights + bias.  Per band row: accumulator for every output
    // channel, one scratch line, and kW shifted input lines (x2 buffers).
    uint64_t fixedBytes = ((uint64_t)cout * cin * kh * kw + cout + 16) * sizeof(float)
                        + 2ULL * kw * (kh - 1) * lineLen * sizeof(float);
    uint64_t perRow = ((uint64_t)cout * lineLen + lineLen + 2ULL * kw * lineLen) * sizeof(float);
    uint32_t band = (uint32_t)((budget - fixedBytes) / perRow);
    if (band > oh) band = oh;
    if (band == 0) band = 1;

    uint32_t bandsPerImage = (oh + band - 1) / band;
    uint32_t units = n * bandsPerImage;
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (units + cores - 1) / cores;
    uint32_t used = (units + perCore - 1) / perCore;

    SmallCinConvHswishTilingData td;
    td.set_batch(n); td.set_cin(cin); td.set_inH(h); td.set_inW(w);
    td.set_cout(cout); td.set_kH(kh); td.set_kW(kw);
    td.set_outH(oh); td.set_outW(ow); td.set_lineLen(lineLen);
    td.set_bandRows(band); td.set_bandsPerImage(bandsPerImage); td.set_bandsPerCore(perCore);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - ws->GetDim(2) + 1);
    ys->SetDim(3, xs->GetDim(3) - ws->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class SmallCinConvHswishCustom : public OpDef {
public:
    explicit SmallCinConvHswishCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SmallCinConvHswishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// Direct valid convolution (stride 1) for a small number of input channels,
// followed by relu and hardswish.  Work unit = a band of output rows of one
// image, computed for all output channels at once.  For every (ci, kw) we copy
// the band's input rows shifted by kw columns straight from GM, so every tap
// (kh, kw) is one AXPY over the whole band (rows are padded to lineLen).
class SmallCinConvHswish {
public:
    __aicore__ inline SmallCinConvHswish() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const SmallCinConvHswishTilingData& td)
    {
        cfg = td;
        slabRows = cfg.bandRows + cfg.kH - 1;
        slabLen = slabRows * cfg.lineLen;
        bandLen = cfg.bandRows * cfg.lineLen;
        nWeights = cfg.cout * cfg.cin * cfg.kH * cfg.kW;

        uint32_t units = cfg.batch * cfg.bandsPerImage;
        first = GetBlockIdx() * cfg.bandsPerCore;
        last = first + cfg.bandsPerCore;
        if (last > units) last = units;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)b);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(slabQ, 2, cfg.kW * slabLen * sizeof(float));
        pipe.InitBuffer(accQ, 1, cfg.cout * bandLen * sizeof(float));
        pipe.InitBuffer(paramQ, 1, ((nWeights + 7) / 8 * 8 + (cfg.cout + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(scratch, bandLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (first >= last) return;
        // weights and bias stay resident for the whole kernel
        LocalTensor<float> prm = paramQ.AllocTensor<float>();
        DataCopyPadExtParams<float> nopad{false, 0, 0, 0.0f};
        DataCopyExtParams cw{1, (uint32_t)(nWeights * sizeof(float)), 0, 0, 0};
        DataCopyPad(prm, wGm, cw, nopad);
        DataCopyExtParams cb{1, (uint32_t)(cfg.cout * sizeof(float)), 0, 0, 0};
        biasOff = (nWeights + 7) / 8 * 8;
        DataCopyPad(prm[biasOff], bGm, cb, nopad);
        paramQ.EnQue(prm);
        prm = paramQ.DeQue<float>();

        for (uint32_t u = first; u < last; ++u) {
            uint32_t img = u / cfg.bandsPerImage;
            uint32_t r0 = (u % cfg.bandsPerImage) * cfg.bandRows;
            uint32_t rows = (cfg.outH - r0) < cfg.bandRows ? (cfg.outH - r0) : cfg.bandRows;
            ConvBand(prm, img, r0, rows);
            Epilogue(img, r0, rows);
        }
        paramQ.FreeTensor(prm);
    }

private:
    __aicore__ inline void ConvBand(LocalTensor<float>& prm, uint32_t img, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        uint32_t span = rows * cfg.lineLen;
        for (uint32_t co = 0; co < cfg.cout; ++co) {
            float bv = prm.GetValue(biasOff + co);
            Duplicate(acc[co * bandLen], bv, span);
        }

        uint32_t inRows = rows + cfg.kH - 1;
        uint32_t owAligned = (cfg.outW + 7) / 8 * 8;
        DataCopyExtParams cp{(uint16_t)inRows, (uint32_t)(cfg.outW * sizeof(float)),
                             (uint32_t)((cfg.inW - cfg.outW) * sizeof(float)),
                             (uint32_t)((cfg.lineLen - owAligned) / 8), 0};
        DataCopyPadExtParams<float> nopad{false, 0, 0, 0.0f};

        for (uint32_t ci = 0; ci < cfg.cin; ++ci) {
            LocalTensor<float> slab = slabQ.AllocTensor<float>();
            uint64_t src = (((uint64_t)img * cfg.cin + ci) * cfg.inH + r0) * cfg.inW;
            for (uint32_t kw = 0; kw < cfg.kW; ++kw) {
                DataCopyPad(slab[kw * slabLen], xGm[src + kw], cp, nopad);
            }
            slabQ.EnQue(slab);
            slab = slabQ.DeQue<float>();

            for (uint32_t co = 0; co < cfg.cout; ++co) {
                uint32_t wb = (co * cfg.cin + ci) * cfg.kH * cfg.kW;
                LocalTensor<float> dst = acc[co * bandLen];
                for (uint32_t kh = 0; kh < cfg.kH; ++kh) {
                    for (uint32_t kw = 0; kw < cfg.kW; ++kw) {
                        float wv = prm.GetValue(wb + kh * cfg.kW + kw);
                        Axpy(dst, slab[kw * slabLen + kh * cfg.lineLen], wv, (int32_t)span);
                    }
                }
            }
            slabQ.FreeTensor(slab);
        }

        // relu, then x * clamp((x + 3) / 6, 0, 1); after relu the lower clamp is free
        LocalTensor<float> tmp = scratch.Get<float>();
        for (uint32_t co = 0; co < cfg.cout; ++co) {
            LocalTensor<float> v = acc[co * bandLen];
            Relu(v, v, span);
            Adds(tmp, v, 3.0f, span);
            Muls(tmp, tmp, 1.0f / 6.0f, span);
            Mins(tmp, tmp, 1.0f, span);
            Mul(v, v, tmp, span);
        }
        accQ.EnQue(acc);
    }

    __aicore__ inline void Epilogue(uint32_t img, uint32_t r0, uint32_t rows)
    {
        LocalTensor<float> acc = accQ.DeQue<float>();
        uint32_t owAligned = (cfg.outW + 7) / 8 * 8;
        DataCopyExtParams cp{(uint16_t)rows, (uint32_t)(cfg.outW * sizeof(float)),
                             (uint32_t)((cfg.lineLen - owAligned) / 8), 0, 0};
        for (uint32_t co = 0; co < cfg.cout; ++co) {
            uint64_t dst = (((uint64_t)img * cfg.cout + co) * cfg.outH + r0) * cfg.outW;
            DataCopyPad(yGm[dst], acc[co * bandLen], cp);
        }
        accQ.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> slabQ;
    TQue<QuePosition::VECIN, 1> paramQ;
    TQue<QuePosition::VECOUT, 1> accQ;
    TBuf<QuePosition::VECCALC> scratch;
    GlobalTensor<float> xGm, wGm, bGm, yGm;
    SmallCinConvHswishTilingData cfg;
    uint32_t slabRows, slabLen, bandLen, nWeights, biasOff;
    uint32_t first, last;
};

extern "C" __global__ __aicore__ void small_cin_conv_hswish_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    SmallCinConvHswish op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor small_cin_conv_hswish_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and OIHW weight");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    int64_t oh = x.size(2) - weight.size(2) + 1;
    int64_t ow = x.size(3) - weight.size(3) + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(0), oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnSmallCinConvHswishCustom, xc, wc, bc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("small_cin_conv_hswish", &small_cin_conv_hswish_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("small_cin_conv_hswish", &small_cin_conv_hswish_npu, "conv2d + relu + hardswish");
}
"""
