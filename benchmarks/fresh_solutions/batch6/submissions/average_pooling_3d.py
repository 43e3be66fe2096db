python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// AvgPool3d, cubic kernel, ceil_mode=False, count_include_pad=True
at::Tensor average_pooling_3d_custom_impl_npu(const at::Tensor& x, int64_t kernel_size, int64_t stride,
                                              int64_t padding)
{
    TORCH_CHECK(x.dim() == 5, "expects (N, C, D, H, W) input");
    TORCH_CHECK(padding >= 0 && padding < 8 && 2 * padding <= kernel_size, "unsupported padding");
    at::Tensor xc = x.contiguous();
    auto out_len = [&](int64_t v) { return (v + 2 * padding - kernel_size) / stride + 1; };
    at::Tensor out = at::empty({x.size(0), x.size(1), out_len(x.size(2)), out_len(x.size(3)), out_len(x.size(4))},
                               x.options());
    EXEC_NPU_CMD(aclnnAveragePooling3dCustom, xc, kernel_size, stride, padding, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("average_pooling_3d_custom", &average_pooling_3d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("average_pooling_3d_custom", &average_pooling_3d_custom_impl_npu, "3D average pooling");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding

    def forward(self, x):
        return custom_ops_lib.average_pooling_3d_custom(x, self.kernel_size, self.stride, self.padding)
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AveragePooling3dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, nc);
  TILING_DATA_FIELD_DEF(uint32_t, d_in);
  TILING_DATA_FIELD_DEF(uint32_t, h_in);
  TILING_DATA_FIELD_DEF(uint32_t, w_in);
  TILING_DATA_FIELD_DEF(uint32_t, d_out);
  TILING_DATA_FIELD_DEF(uint32_t, h_out);
  TILING_DATA_FIELD_DEF(uint32_t, w_out);
  TILING_DATA_FIELD_DEF(uint32_t, ks);
  TILING_DATA_FIELD_DEF(uint32_t, st);
  TILING_DATA_FIELD_DEF(uint32_t, pd);
  TILING_DATA_FIELD_DEF(uint32_t, w_row);     // UB row pitch: pd zeros | w_in values | zeros, 8-aligned
  TILING_DATA_FIELD_DEF(uint32_t, oh_blk);    // output rows produced per task
  TILING_DATA_FIELD_DEF(uint32_t, oh_blks);   // ceil(h_out / oh_blk)
  TILING_DATA_FIELD_DEF(uint32_t, task_num);  // nc * d_out * oh_blks
  TILING_DATA_FIELD_DEF(float, inv_cnt);      // 1 / ks^3
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AveragePooling3dCustom, AveragePooling3dCustomTilingData)
}
"""

host_operator_src="""
#include "average_pooling_3d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ROW_BUF_ELEMS = 8192;   // input rows of one depth slice per task (32KB)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    uint32_t nc = s.GetDim(0) * s.GetDim(1);
    uint32_t d = s.GetDim(2), h = s.GetDim(3), w = s.GetDim(4);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    uint32_t ks = static_cast<uint32_t>(*(attrs->GetAttrPointer<int64_t>(0)));
    uint32_t st = static_cast<uint32_t>(*(attrs->GetAttrPointer<int64_t>(1)));
    uint32_t pd = static_cast<uint32_t>(*(attrs->GetAttrPointer<int64_t>(2)));
    if (ks == 0 || st == 0 || pd >= 8) {
        return ge::GRAPH_FAILED;
    }
    uint32_t od = (d + 2 * pd - ks) / st + 1;
    uint32_t oh = (h + 2 * pd - ks) / st + 1;
    uint32_t ow = (w + 2 * pd - ks) / st + 1;
    uint32_t w_row = (pd + w + 7) / 8 * 8;

    // rows needed for oh_blk outputs: (oh_blk - 1) * st + ks
    uint32_t max_rows = ROW_BUF_ELEMS / w_row;
    if (max_rows < ks) {
        return ge::GRAPH_FAILED;   // a single row would not fit, not handled here
    }
    uint32_t oh_blk = (max_rows - ks) / st + 1;
    if (oh_blk > oh) {
        oh_blk = oh;
    }
    uint32_t oh_blks = (oh + oh_blk - 1) / oh_blk;
    uint32_t tasks = nc * od * oh_blks;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    context->SetBlockDim(tasks < cores ? tasks : cores);

    AveragePooling3dCustomTilingData td;
    td.set_nc(nc);
    td.set_d_in(d);
    td.set_h_in(h);
    td.set_w_in(w);
    td.set_d_out(od);
    td.set_h_out(oh);
    td.set_w_out(ow);
    td.set_ks(ks);
    td.set_st(st);
    td.set_pd(pd);
    td.set_w_row(w_row);
    td.set_oh_blk(oh_blk);
    td.set_oh_blks(oh_blks);
    td.set_task_num(tasks);
    td.set_inv_cnt(1.0f / static_cast<float>(ks * ks * ks));
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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t ks = *(attrs->GetAttrPointer<int64_t>(0));
    int64_t st = *(attrs->GetAttrPointer<int64_t>(1));
    int64_t pd = *(attrs->GetAttrPointer<int64_t>(2));
    out->SetDimNum(5);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, in->GetDim(1));
    for (size_t i = 2; i < 5; i++) {
        out->SetDim(i, (in->GetDim(i) + 2 * pd - ks) / st + 1);
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
class AveragePooling3dCustom : public OpDef {
public:
    explicit AveragePooling3dCustom(const char* name) : OpDef(name)
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
        this->Attr("kernel_size").AttrType(REQUIRED).Int();
        this->Attr("stride").AttrType(REQUIRED).Int();
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AveragePooling3dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// One task = (plane nc, output depth od, block of oh_blk output rows).
//  1. the needed input rows of every depth slice in the window are added into dsum
//     (each row lands in UB as [pd zeros | w_in values | zeros], so W padding is free)
//  2. ks consecutive (stride st) dsum rows are added per output row -> hsum
//  3. the W window is summed with Gather: ks gathers of element ow*st + j, j < ks
// count_include_pad=True, so every window is divided by ks^3.
class KernelAvgPool3d {
public:
    __aicore__ inline KernelAvgPool3d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AveragePooling3dCustomTilingData& td)
    {
        nc = td.nc; d_in = td.d_in; h_in = td.h_in; w_in = td.w_in;
        d_out = td.d_out; h_out = td.h_out; w_out = td.w_out;
        ks = td.ks; st = td.st; pd = td.pd; w_row = td.w_row;
        oh_blk = td.oh_blk; oh_blks = td.oh_blks; task_num = td.task_num;
        inv_cnt = td.inv_cnt;

        x_gm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(nc) * d_in * h_in * w_in);
        y_gm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(nc) * d_out * h_out * w_out);

        max_rows = (oh_blk - 1) * st + ks;
        uint32_t out_elems = (oh_blk * w_out + 7) / 8 * 8;
        pipe.InitBuffer(in_q, BUFFER_NUM, max_rows * w_row * sizeof(float));
        pipe.InitBuffer(out_q, BUFFER_NUM, out_elems * sizeof(float));
        pipe.InitBuffer(dsum_buf, max_rows * w_row * sizeof(float));
        // 8 spare zero floats after the last row: windows may run up to pd-1 past a row
        pipe.InitBuffer(hsum_buf, (oh_blk * w_row + 8) * sizeof(float));
        pipe.InitBuffer(gat_buf, out_elems * sizeof(float));
        pipe.InitBuffer(off_buf, out_elems * sizeof(uint32_t));

        build_offsets();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = GetBlockIdx(); t < task_num; t += GetBlockNum()) {
            uint32_t blk = t % oh_blks;
            uint32_t rest = t / oh_blks;
            uint32_t od = rest % d_out;
            uint32_t p = rest / d_out;
            uint32_t oh0 = blk * oh_blk;
            uint32_t cnt = (h_out - oh0) < oh_blk ? (h_out - oh0) : oh_blk;
            run_task(p, od, oh0, cnt);
        }
    }

private:
    // byte offsets of element (i * w_row + ow * st) for each output (i, ow)
    __aicore__ inline void build_offsets()
    {
        LocalTensor<uint32_t> off = off_buf.Get<uint32_t>();
        for (uint32_t i = 0; i < oh_blk; i++) {
            for (uint32_t ow = 0; ow < w_out; ow++) {
                off.SetValue(i * w_out + ow, (i * w_row + ow * st) * sizeof(float));
            }
        }
        LocalTensor<float> hs = hsum_buf.Get<float>();
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(e);
        WaitFlag<HardEvent::S_V>(e);
        Duplicate(hs, 0.0f, oh_blk * w_row + 8);
    }

    __aicore__ inline void run_task(uint32_t p, uint32_t od, uint32_t oh0, uint32_t cnt)
    {
        LocalTensor<float> dsum = dsum_buf.Get<float>();
        uint32_t rows = (cnt - 1) * st + ks;
        int32_t h_first = static_cast<int32_t>(oh0 * st) - static_cast<int32_t>(pd);   // h of buffer row 0
        int32_t h_lo = h_first < 0 ? 0 : h_first;
        int32_t h_hi = h_first + static_cast<int32_t>(rows);
        if (h_hi > static_cast<int32_t>(h_in)) {
            h_hi = static_cast<int32_t>(h_in);
        }
        uint32_t r_lo = static_cast<uint32_t>(h_lo - h_first);
        uint32_t n_valid = static_cast<uint32_t>(h_hi - h_lo);

        // rows outside the input (top / bottom padding) must stay zero
        Duplicate(dsum, 0.0f, rows * w_row);

        int32_t d_first = static_cast<int32_t>(od * st) - static_cast<int32_t>(pd);
        for (uint32_t j = 0; j < ks; j++) {
            int32_t d = d_first + static_cast<int32_t>(j);
            if (d < 0 || d >= static_cast<int32_t>(d_in)) {
                continue;
            }
            uint64_t src = ((static_cast<uint64_t>(p) * d_in + d) * h_in + h_lo) * w_in;
            load_rows(src, n_valid);
            LocalTensor<float> rin = in_q.DeQue<float>();
            Add(dsum[r_lo * w_row], dsum[r_lo * w_row], rin, n_valid * w_row);
            in_q.FreeTensor(rin);
        }

        // H window
        LocalTensor<float> hs = hsum_buf.Get<float>();
        for (uint32_t i = 0; i < cnt; i++) {
            uint32_t r0 = i * st;
            Adds(hs[i * w_row], dsum[r0 * w_row], 0.0f, w_row);
            for (uint32_t j = 1; j < ks; j++) {
                Add(hs[i * w_row], hs[i * w_row], dsum[(r0 + j) * w_row], w_row);
            }
        }

        // W window via gather
        LocalTensor<uint32_t> off = off_buf.Get<uint32_t>();
        LocalTensor<float> g = gat_buf.Get<float>();
        LocalTensor<float> o = out_q.AllocTensor<float>();
        uint32_t n_out = cnt * w_out;
        Gather(o, hs, off, 0, n_out);
        for (uint32_t j = 1; j < ks; j++) {
            Gather(g, hs, off, j * static_cast<uint32_t>(sizeof(float)), n_out);
            Add(o, o, g, n_out);
        }
        Muls(o, o, inv_cnt, n_out);
        out_q.EnQue(o);

        o = out_q.DeQue<float>();
        uint64_t dst = ((static_cast<uint64_t>(p) * d_out + od) * h_out + oh0) * w_out;
        DataCopyExtParams cp{1, static_cast<uint32_t>(n_out * sizeof(float)), 0, 0, 0};
        DataCopyPad(y_gm[dst], o, cp);
        out_q.FreeTensor(o);
    }

    // n rows of w_in floats -> UB rows of w_row floats with pd zeros in front and zeros behind
    __aicore__ inline void load_rows(uint64_t src, uint32_t n)
    {
        LocalTensor<float> rin = in_q.AllocTensor<float>();
        uint8_t rpad = static_cast<uint8_t>(w_row - pd - w_in);
        DataCopyExtParams cp{static_cast<uint16_t>(n), static_cast<uint32_t>(w_in * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, static_cast<uint8_t>(pd), rpad, 0.0f};
        DataCopyPad(rin, x_gm[src], cp, pad);
        in_q.EnQue(rin);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q;
    TQue<QuePosition::VECOUT, BUFFER_NUM> out_q;
    TBuf<QuePosition::VECCALC> dsum_buf, hsum_buf, gat_buf, off_buf;
    GlobalTensor<float> x_gm, y_gm;
    uint32_t nc, d_in, h_in, w_in, d_out, h_out, w_out;
    uint32_t ks, st, pd, w_row, oh_blk, oh_blks, task_num, max_rows;
    float inv_cnt;
};

extern "C" __global__ __aicore__ void average_pooling_3d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelAvgPool3d op;
    op.Init(x, y, td);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "AveragePooling3dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"}
        ]
    }
]
'''
