python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor bilinear_upsample_custom_impl_npu(const at::Tensor& x, double scale_factor)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    int64_t ho = static_cast<int64_t>(x.size(2) * scale_factor);
    int64_t wo = static_cast<int64_t>(x.size(3) * scale_factor);
    at::Tensor y = at::empty({x.size(0), x.size(1), ho, wo}, x.options());
    float sf = static_cast<float>(scale_factor);
    EXEC_NPU_CMD(aclnnBilinearUpsampleCustom, x.contiguous(), sf, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bilinear_upsample_custom", &bilinear_upsample_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bilinear_upsample_custom", &bilinear_upsample_custom_impl_npu,
          "bilinear interpolate, align_corners=False");
}
"""

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BilinearUpsampleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);     // N * C
  TILING_DATA_FIELD_DEF(uint32_t, h_in);
  TILING_DATA_FIELD_DEF(uint32_t, w_in);
  TILING_DATA_FIELD_DEF(uint32_t, h_out);
  TILING_DATA_FIELD_DEF(uint32_t, w_out);
  TILING_DATA_FIELD_DEF(uint32_t, p_blk);      // planes per core
  TILING_DATA_FIELD_DEF(uint32_t, row_chunk);  // output rows per store
  TILING_DATA_FIELD_DEF(float, rh);            // source step along H (1/scale)
  TILING_DATA_FIELD_DEF(float, rw);            // source step along W (1/scale)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BilinearUpsampleCustom, BilinearUpsampleCustomTilingData)
}
"""

host_operator_src="""
#include "bilinear_upsample_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t al8(uint32_t v) { return (v + 7) / 8 * 8; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto in_shape = context->GetInputShape(0)->GetStorageShape();
    auto out_shape = context->GetOutputShape(0)->GetStorageShape();
    const float* sf_ptr = context->GetAttrs()->GetAttrPointer<float>(0);
    float sf = sf_ptr == nullptr ? 2.0f : *sf_ptr;

    uint32_t planes = in_shape.GetDim(0) * in_shape.GetDim(1);
    uint32_t h_in = in_shape.GetDim(2);
    uint32_t w_in = in_shape.GetDim(3);
    uint32_t h_out = out_shape.GetDim(2);
    uint32_t w_out = out_shape.GetDim(3);

    // UB plan: 2 input planes + horizontally resampled plane + 2 output chunks
    uint64_t ub_size = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub_size);
    uint32_t row_chunk = 32;
    if (row_chunk > h_out) row_chunk = h_out;
    uint64_t need = (2ull * h_in * al8(w_in) + 1ull * h_in * al8(w_out) + 2ull * row_chunk * al8(w_out)
                     + 6ull * al8(w_out)) * sizeof(float);
    if (need + 16 * 1024 > ub_size) {
        return ge::GRAPH_FAILED;
    }

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t p_blk = (planes + cores - 1) / cores;
    uint32_t used = (planes + p_blk - 1) / p_blk;

    BilinearUpsampleCustomTilingData td;
    td.set_planes(planes);
    td.set_h_in(h_in);
    td.set_w_in(w_in);
    td.set_h_out(h_out);
    td.set_w_out(w_out);
    td.set_p_blk(p_blk);
    td.set_row_chunk(row_chunk);
    // PyTorch uses 1/scale_factor when a scale factor is given
    td.set_rh(1.0f / sf);
    td.set_rw(1.0f / sf);

    context->SetBlockDim(used);
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
    const gert::Shape* xs = context->GetInputShape(0);
    const float* sf = context->GetAttrs()->GetAttrPointer<float>(0);
    float s = sf == nullptr ? 2.0f : *sf;
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, xs->GetDim(1));
    ys->SetDim(2, static_cast<int64_t>(xs->GetDim(2) * s));
    ys->SetDim(3, static_cast<int64_t>(xs->GetDim(3) * s));
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class BilinearUpsampleCustom : public OpDef {
public:
    explicit BilinearUpsampleCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("scale_factor").AttrType(OPTIONAL).Float(2.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(BilinearUpsampleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

__aicore__ inline uint32_t al8(uint32_t v) { return (v + 7) / 8 * 8; }

// Separable bilinear resize (align_corners=False), one H x W plane at a time:
//   1. horizontal pass on every input row with two Gathers -> hp[h_in][w_out]
//   2. vertical pass: out row = hp[h0] + (hp[h1] - hp[h0]) * lh
class KernelBilinearUp {
public:
    __aicore__ inline KernelBilinearUp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const BilinearUpsampleCustomTilingData& td)
    {
        h_in = td.h_in; w_in = td.w_in; h_out = td.h_out; w_out = td.w_out;
        rh = td.rh; rw = td.rw; row_chunk = td.row_chunk;
        wa_in = al8(w_in);
        wa_out = al8(w_out);

        uint32_t p0 = GetBlockIdx() * td.p_blk;
        n_planes = 0;
        if (p0 < td.planes) {
            n_planes = (td.planes - p0) < td.p_blk ? (td.planes - p0) : td.p_blk;
        }
        x_gm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)p0 * h_in * w_in, (uint64_t)n_planes * h_in * w_in);
        y_gm.SetGlobalBuffer((__gm__ float*)y + (uint64_t)p0 * h_out * w_out, (uint64_t)n_planes * h_out * w_out);

        pipe.InitBuffer(in_q, 2, h_in * wa_in * sizeof(float));
        pipe.InitBuffer(out_q, 2, row_chunk * wa_out * sizeof(float));
        pipe.InitBuffer(hp_buf, h_in * wa_out * sizeof(float));
        pipe.InitBuffer(off_buf, 2 * wa_out * sizeof(uint32_t));
        pipe.InitBuffer(lam_buf, wa_out * sizeof(float));
        pipe.InitBuffer(tmp_buf, 3 * wa_out * sizeof(float));
        build_col_table();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < n_planes; ++p) {
            load_plane(p);
            horizontal();
            vertical(p);
        }
    }

private:
    __aicore__ inline void src_index(uint32_t dst, float ratio, uint32_t in_len,
                                     uint32_t& i0, uint32_t& i1, float& l1)
    {
        float s = ratio * (static_cast<float>(dst) + 0.5f) - 0.5f;
        if (s < 0.0f) s = 0.0f;
        i0 = static_cast<uint32_t>(s);
        if (i0 > in_len - 1) i0 = in_len - 1;
        i1 = (i0 < in_len - 1) ? i0 + 1 : i0;
        l1 = s - static_cast<float>(i0);
    }

    // byte offsets of the left/right neighbours and the right weight for every output column
    __aicore__ inline void build_col_table()
    {
        LocalTensor<uint32_t> offs = off_buf.Get<uint32_t>();
        LocalTensor<float> lam = lam_buf.Get<float>();
        for (uint32_t ow = 0; ow < wa_out; ++ow) {
            uint32_t i0 = 0, i1 = 0;
            float l1 = 0.0f;
            if (ow < w_out) {
                src_index(ow, rw, w_in, i0, i1, l1);
            }
            offs.SetValue(ow, i0 * sizeof(float));
            offs.SetValue(wa_out + ow, i1 * sizeof(float));
            lam.SetValue(ow, l1);
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void load_plane(uint32_t p)
    {
        LocalTensor<float> xl = in_q.AllocTensor<float>();
        // rows land 32B aligned in UB (w_in padded to wa_in)
        DataCopyExtParams cp{static_cast<uint16_t>(h_in), static_cast<uint32_t>(w_in * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xl, x_gm[(uint64_t)p * h_in * w_in], cp, pad);
        in_q.EnQue(xl);
    }

    __aicore__ inline void horizontal()
    {
        LocalTensor<float> xl = in_q.DeQue<float>();
        LocalTensor<float> hp = hp_buf.Get<float>();
        LocalTensor<uint32_t> offs = off_buf.Get<uint32_t>();
        LocalTensor<uint32_t> off_l = offs;
        LocalTensor<uint32_t> off_r = offs[wa_out];
        LocalTensor<float> lam = lam_buf.Get<float>();
        LocalTensor<float> tmp = tmp_buf.Get<float>();
        LocalTensor<float> gl = tmp;
        LocalTensor<float> gr = tmp[wa_out];

        for (uint32_t h = 0; h < h_in; ++h) {
            uint32_t base = h * wa_in * sizeof(float);
            Gather(gl, xl, off_l, base, w_out);
            Gather(gr, xl, off_r, base, w_out);
            Sub(gr, gr, gl, w_out);
            Mul(gr, gr, lam, w_out);
            Add(hp[h * wa_out], gl, gr, w_out);
        }
        in_q.FreeTensor(xl);
    }

    __aicore__ inline void vertical(uint32_t p)
    {
        LocalTensor<float> hp = hp_buf.Get<float>();
        LocalTensor<float> diff = tmp_buf.Get<float>()[2 * wa_out];
        uint64_t plane_off = (uint64_t)p * h_out * w_out;

        for (uint32_t r0 = 0; r0 < h_out; r0 += row_chunk) {
            uint32_t rows = (h_out - r0) < row_chunk ? (h_out - r0) : row_chunk;
            LocalTensor<float> ol = out_q.AllocTensor<float>();
            for (uint32_t r = 0; r < rows; ++r) {
                uint32_t h0 = 0, h1 = 0;
                float lh = 0.0f;
                src_index(r0 + r, rh, h_in, h0, h1, lh);
                LocalTensor<float> top = hp[h0 * wa_out];
                LocalTensor<float> bot = hp[h1 * wa_out];
                LocalTensor<float> dst = ol[r * wa_out];
                Sub(diff, bot, top, w_out);
                Muls(diff, diff, lh, w_out);
                Add(dst, top, diff, w_out);
            }
            out_q.EnQue(ol);
            ol = out_q.DeQue<float>();
            DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(w_out * sizeof(float)), 0, 0, 0};
            DataCopyPad(y_gm[plane_off + (uint64_t)r0 * w_out], ol, cp);
            out_q.FreeTensor(ol);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> in_q;
    TQue<QuePosition::VECOUT, 2> out_q;
    TBuf<TPosition::VECCALC> hp_buf, off_buf, lam_buf, tmp_buf;
    GlobalTensor<float> x_gm, y_gm;
    uint32_t h_in, w_in, h_out, w_out, wa_in, wa_out, row_chunk, n_planes;
    float rh, rw;
};

extern "C" __global__ __aicore__ void bilinear_upsample_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelBilinearUp op;
    op.Init(x, y, td);
    op.Process();
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def forward(self, x):
        return custom_ops_lib.bilinear_upsample_custom(x, 2.0)
'''

project_json_src='''
[
    {
        "op": "BilinearUpsampleCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "scale_factor", "param_type": "optional", "type": "float", "default_value": "2.0"}
        ]
    }
]
'''
