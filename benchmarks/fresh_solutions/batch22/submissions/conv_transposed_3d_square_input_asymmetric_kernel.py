project_json_src='''
[
    {
        "op": "AnisoKernelDeconv3dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x_padded", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
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
BEGIN_TILING_DATA_DEF(AnisoKernelDeconv3dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, padD);      // spatial dims of the zero padded input
  TILING_DATA_FIELD_DEF(uint32_t, padH);
  TILING_DATA_FIELD_DEF(uint32_t, padW);
  TILING_DATA_FIELD_DEF(uint32_t, kD);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowAlign);  // outW rounded to a 32B multiple of the io dtype
  TILING_DATA_FIELD_DEF(uint32_t, wSliceAlign);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AnisoKernelDeconv3dCustom, AnisoKernelDeconv3dTilingData)
}
"""

host_operator_src="""
#include "aniso_kernel_deconv3d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t AlignUp(uint32_t a, uint32_t b) { return CeilDiv(a, b) * b; }

// Splits the (n, od, oh) output rows evenly across vector cores.
struct DeconvRowPlanner {
    uint32_t rows;
    uint32_t cores;
    uint32_t perCore;
    void Plan(uint32_t coreNum)
    {
        cores = rows < coreNum ? rows : coreNum;
        if (cores == 0) cores = 1;
        perCore = CeilDiv(rows, cores);
        cores = CeilDiv(rows, perCore);
    }
};
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AnisoKernelDeconv3dTilingData td;
    const gert::Shape &xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape &ws = context->GetInputShape(1)->GetOriginShape();
    if (xs.GetDimNum() != 5 || ws.GetDimNum() != 5 || xs.GetDim(1) != ws.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t n = xs.GetDim(0), ci = xs.GetDim(1);
    uint32_t pd = xs.GetDim(2), ph = xs.GetDim(3), pw = xs.GetDim(4);
    uint32_t co = ws.GetDim(1);
    uint32_t kd = ws.GetDim(2), kh = ws.GetDim(3), kw = ws.GetDim(4);
    uint32_t od = pd - kd + 1, oh = ph - kh + 1, ow = pw - kw + 1;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    DeconvRowPlanner planner{n * od * oh, 1, 1};
    planner.Plan(plat.GetCoreNumAiv());

    td.set_batch(n);
    td.set_cin(ci);
    td.set_cout(co);
    td.set_padD(pd);
    td.set_padH(ph);
    td.set_padW(pw);
    td.set_kD(kd);
    td.set_kH(kh);
    td.set_kW(kw);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_rowAlign(AlignUp(ow, 32 / typeSize));
    td.set_wSliceAlign(AlignUp(co * kd * kh * kw, 16));
    td.set_totalRows(planner.rows);
    td.set_rowsPerCore(planner.perCore);

    context->SetBlockDim(planner.cores);
    context->SetTilingKey(typeSize == 2 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
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
    ys->SetDimNum(5);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    for (size_t i = 2; i < 5; ++i) {
        ys->SetDim(i, xs->GetDim(i) - ws->GetDim(i) + 1);
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
class AnisoKernelDeconv3dCustom : public OpDef {
public:
    explicit AnisoKernelDeconv3dCustom(const char* name) : OpDef(name)
    {
        this->Input("x_padded")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AnisoKernelDeconv3dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Row geometry: a stride-1 transposed conv equals a full correlation of the (K-1)-padded
// input with the spatially flipped kernel, so each output row is a sum of shifted input rows.
struct DeconvGeom {
    uint32_t cin, cout, pd, ph, pw, kd, kh, kw, od, oh, ow;
    __aicore__ inline uint64_t InRow(uint32_t n, uint32_t c, uint32_t d, uint32_t h) const
    {
        return (((static_cast<uint64_t>(n) * cin + c) * pd + d) * ph + h) * pw;
    }
    __aicore__ inline uint64_t OutRow(uint32_t n, uint32_t c, uint32_t d, uint32_t h) const
    {
        return (((static_cast<uint64_t>(n) * cout + c) * od + d) * oh + h) * ow;
    }
    __aicore__ inline uint32_t KVol() const { return kd * kh * kw; }
};

template <typename T>
class AnisoKernelDeconv3d {
public:
    __aicore__ inline AnisoKernelDeconv3d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const AnisoKernelDeconv3dTilingData &td)
    {
        g = {td.cin, td.cout, td.padD, td.padH, td.padW, td.kD, td.kH, td.kW, td.outD, td.outH, td.outW};
        rowAlign = td.rowAlign;
        wSlice = td.wSliceAlign;
        rowBegin = AscendC::GetBlockIdx() * td.rowsPerCore;
        rowEnd = rowBegin + td.rowsPerCore;
        if (rowEnd > td.totalRows) rowEnd = td.totalRows;

        xGm.SetGlobalBuffer((__gm__ T *)x);
        wGm.SetGlobalBuffer((__gm__ T *)w);
        yGm.SetGlobalBuffer((__gm__ T *)y);

        pipe.InitBuffer(shiftQue, BUFFER_NUM, g.kw * rowAlign * sizeof(T));   // kw shifted input rows
        pipe.InitBuffer(wQue, 1, wSlice * sizeof(T));                         // weights of one input channel
        pipe.InitBuffer(outQue, BUFFER_NUM, g.cout * rowAlign * sizeof(T));
        pipe.InitBuffer(accBuf, g.cout * rowAlign * sizeof(float));           // fp32 accumulators, one row per oc
        pipe.InitBuffer(wF32, wSlice * sizeof(float));
        pipe.InitBuffer(shiftF32, g.kw * rowAlign * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            uint32_t h = r % g.oh;
            uint32_t d = (r / g.oh) % g.od;
            uint32_t n = r / (g.oh * g.od);
            AscendC::LocalTensor<float> acc = accBuf.Get<float>();
            AscendC::Duplicate(acc, 0.0f, g.cout * rowAlign);
            for (uint32_t ci = 0; ci < g.cin; ++ci) {
                LoadWeights(ci);
                for (uint32_t a = 0; a < g.kd; ++a) {
                    for (uint32_t b = 0; b < g.kh; ++b) {
                        LoadShifted(n, ci, d + a, h + b);
                        Accumulate(a, b);
                    }
                }
            }
            Store(n, d, h);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t ci)
    {
        uint32_t cnt = g.cout * g.KVol();
        AscendC::LocalTensor<T> raw = wQue.AllocTensor<T>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(raw, wGm[static_cast<uint64_t>(ci) * cnt], cp, pad);
        wQue.EnQue(raw);
        raw = wQue.DeQue<T>();
        AscendC::LocalTensor<float> wf = wF32.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(wf, raw, wSlice);
        } else {
            AscendC::Cast(wf, raw, AscendC::RoundMode::CAST_NONE, wSlice);
        }
        wQue.FreeTensor(raw);
        AscendC::PipeBarrier<PIPE_ALL>();   // weights are read by the scalar unit
    }

    // shifted[j][ow] = xpad[.., ow + j], j = 0..kw-1
    __aicore__ inline void LoadShifted(uint32_t n, uint32_t ci, uint32_t dd, uint32_t hh)
    {
        AscendC::LocalTensor<T> sh = shiftQue.AllocTensor<T>();
        uint64_t base = g.InRow(n, ci, dd, hh);
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(g.ow * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t j = 0; j < g.kw; ++j) {
            AscendC::DataCopyPad(sh[j * rowAlign], xGm[base + j], cp, pad);
        }
        shiftQue.EnQue(sh);
    }

    __aicore__ inline void Accumulate(uint32_t a, uint32_t b)
    {
        AscendC::LocalTensor<T> sh = shiftQue.DeQue<T>();
        AscendC::LocalTensor<float> shf = shiftF32.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(shf, sh, g.kw * rowAlign);
        } else {
            AscendC::Cast(shf, sh, AscendC::RoundMode::CAST_NONE, g.kw * rowAlign);
        }
        shiftQue.FreeTensor(sh);
        AscendC::LocalTensor<float> wf = wF32.Get<float>();
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        uint32_t kvol = g.KVol();
        // flipped tap: padded offset (a, b, j) pairs with kernel index (kd-1-a, kh-1-b, kw-1-j)
        uint32_t tapBase = ((g.kd - 1 - a) * g.kh + (g.kh - 1 - b)) * g.kw;
        for (uint32_t co = 0; co < g.cout; ++co) {
            for (uint32_t j = 0; j < g.kw; ++j) {
                float wv = wf.GetValue(co * kvol + tapBase + (g.kw - 1 - j));
                AscendC::Axpy(acc[co * rowAlign], shf[j * rowAlign], wv, g.ow);
            }
        }
    }

    __aicore__ inline void Store(uint32_t n, uint32_t d, uint32_t h)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<T> out = outQue.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            AscendC::DataCopy(out, acc, g.cout * rowAlign);
        } else {
            AscendC::Cast(out, acc, AscendC::RoundMode::CAST_ROUND, g.cout * rowAlign);
        }
        outQue.EnQue(out);
        out = outQue.DeQue<T>();
        // one burst per output channel; channel planes are od*oh*ow apart in GM
        uint64_t planeBytes = static_cast<uint64_t>(g.od) * g.oh * g.ow * sizeof(T);
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(g.cout), static_cast<uint32_t>(g.ow * sizeof(T)), 0,
                                      static_cast<uint32_t>(planeBytes - g.ow * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[g.OutRow(n, 0, d, h)], out, cp);
        outQue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> shiftQue;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> wQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, wF32, shiftF32;
    AscendC::GlobalTensor<T> xGm, wGm, yGm;
    DeconvGeom g;
    uint32_t rowAlign, wSlice, rowBegin, rowEnd;
};

extern "C" __global__ __aicore__ void aniso_kernel_deconv3d_custom(GM_ADDR x_padded, GM_ADDR weight, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        AnisoKernelDeconv3d<float> op;
        op.Init(x_padded, weight, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        AnisoKernelDeconv3d<half> op;
        op.Init(x_padded, weight, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Stride-1 ConvTranspose3d (groups=1, no bias). Padding p is folded into the zero border:
// the input is padded by (K-1-p) per side, then the kernel runs a valid correlation.
at::Tensor aniso_kernel_deconv3d_impl_npu(const at::Tensor& x, const at::Tensor& weight, int64_t padding)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(0), "in_channels mismatch");
    int64_t kd = weight.size(2), kh = weight.size(3), kw = weight.size(4);
    TORCH_CHECK(padding <= kd - 1 && padding <= kh - 1 && padding <= kw - 1, "padding too large");
    int64_t bd = kd - 1 - padding, bh = kh - 1 - padding, bw = kw - 1 - padding;
    at::Tensor xp = at::constant_pad_nd(x.contiguous(), {bw, bw, bh, bh, bd, bd}, 0);
    at::Tensor w = weight.to(x.scalar_type()).contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(1), xp.size(2) - kd + 1, xp.size(3) - kh + 1,
                              xp.size(4) - kw + 1}, x.options());
    EXEC_NPU_CMD(aclnnAnisoKernelDeconv3dCustom, xp, w, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("aniso_kernel_deconv3d_custom", &aniso_kernel_deconv3d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("aniso_kernel_deconv3d_custom", &aniso_kernel_deconv3d_impl_npu,
          "stride-1 transposed 3D convolution", py::arg("x"), py::arg("weight"), py::arg("padding") = 0);
}
"""
