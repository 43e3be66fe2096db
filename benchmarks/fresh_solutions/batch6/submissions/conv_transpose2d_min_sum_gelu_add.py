python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// transposed conv through aten, then min(C) -> sum(H) -> gelu -> +bias in one custom kernel
at::Tensor conv_transpose2d_min_sum_gelu_add_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& conv_bias, const at::Tensor& bias,
    int64_t stride, int64_t padding, int64_t output_padding)
{
    at::Tensor y = at::conv_transpose2d(x, weight, conv_bias, {stride, stride}, {padding, padding},
                                        {output_padding, output_padding}).contiguous();
    at::Tensor b = bias.reshape({-1}).contiguous();
    at::Tensor out = at::empty({y.size(0), 1, 1, y.size(3)}, y.options());
    EXEC_NPU_CMD(aclnnConvTranspose2dMinSumGeluAddCustom, y, b, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose2d_min_sum_gelu_add_custom", &conv_transpose2d_min_sum_gelu_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose2d_min_sum_gelu_add_custom", &conv_transpose2d_min_sum_gelu_add_custom_impl_npu,
          "conv_transpose2d + min(dim1) + sum(dim2) + gelu + bias");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding, bias_shape):
        super().__init__()
        self.conv_transpose = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size,
                                                       stride, padding, output_padding)
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))
        self.stride = stride
        self.padding = padding
        self.output_padding = output_padding

    def forward(self, x):
        return custom_ops_lib.conv_transpose2d_min_sum_gelu_add_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias, self.bias,
            self.stride, self.padding, self.output_padding)
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose2dMinSumGeluAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n_b);       // batch
  TILING_DATA_FIELD_DEF(uint32_t, c_ch);      // channels reduced by min
  TILING_DATA_FIELD_DEF(uint32_t, h_len);     // rows reduced by sum
  TILING_DATA_FIELD_DEF(uint32_t, w_len);     // columns kept
  TILING_DATA_FIELD_DEF(uint32_t, w_tile);    // columns per task (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, w_tiles);   // tasks per batch item
  TILING_DATA_FIELD_DEF(uint32_t, task_num);  // n_b * w_tiles
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose2dMinSumGeluAddCustom, ConvTranspose2dMinSumGeluAddCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose2d_min_sum_gelu_add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// one [C, w_tile] block is loaded per input row; keep it around 32KB
constexpr uint32_t BLOCK_ELEMS = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1), h = s.GetDim(2), w = s.GetDim(3);

    uint32_t w_al = (w + 7) / 8 * 8;
    uint32_t w_tile = BLOCK_ELEMS / c / 8 * 8;
    if (w_tile < 8) {
        w_tile = 8;
    }
    if (w_tile > w_al) {
        w_tile = w_al;
    }
    uint32_t w_tiles = (w + w_tile - 1) / w_tile;
    uint32_t tasks = n * w_tiles;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores == 0) {
        cores = 1;
    }
    context->SetBlockDim(tasks < cores ? tasks : cores);

    ConvTranspose2dMinSumGeluAddCustomTilingData td;
    td.set_n_b(n);
    td.set_c_ch(c);
    td.set_h_len(h);
    td.set_w_len(w);
    td.set_w_tile(w_tile);
    td.set_w_tiles(w_tiles);
    td.set_task_num(tasks);
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
    out->SetDimNum(4);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, 1);
    out->SetDim(2, 1);
    out->SetDim(3, in->GetDim(3));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose2dMinSumGeluAddCustom : public OpDef {
public:
    explicit ConvTranspose2dMinSumGeluAddCustom(const char* name) : OpDef(name)
    {
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose2dMinSumGeluAddCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float INV_SQRT2 = 0.70710678118654752f;

// task = (batch n, column tile). For each input row h the [C, w_tile] block is loaded with
// one strided copy, min-reduced over C by halving, and accumulated into the column sums.
class KernelMinSumGelu {
public:
    __aicore__ inline KernelMinSumGelu() {}

    __aicore__ inline void Init(GM_ADDR y, GM_ADDR bias, GM_ADDR out, uint32_t n_b, uint32_t c_ch,
                                uint32_t h_len, uint32_t w_len, uint32_t w_tile, uint32_t w_tiles,
                                uint32_t task_num)
    {
        this->c_ch = c_ch;
        this->h_len = h_len;
        this->w_len = w_len;
        this->w_tile = w_tile;
        this->w_tiles = w_tiles;
        this->task_num = task_num;

        y_gm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(n_b) * c_ch * h_len * w_len);
        b_gm.SetGlobalBuffer((__gm__ float*)bias, 1);
        o_gm.SetGlobalBuffer((__gm__ float*)out, static_cast<uint64_t>(n_b) * w_len);

        pipe.InitBuffer(in_q, BUFFER_NUM, c_ch * w_tile * sizeof(float));
        pipe.InitBuffer(out_q, 1, w_tile * sizeof(float));
        pipe.InitBuffer(acc_buf, w_tile * sizeof(float));
        pipe.InitBuffer(tmp_buf, w_tile * sizeof(float));
        bias_v = b_gm.GetValue(0);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = GetBlockIdx(); t < task_num; t += GetBlockNum()) {
            uint32_t n = t / w_tiles;
            uint32_t w0 = (t % w_tiles) * w_tile;
            uint32_t cur_w = (w_len - w0) < w_tile ? (w_len - w0) : w_tile;
            run_task(n, w0, cur_w);
        }
    }

private:
    __aicore__ inline void run_task(uint32_t n, uint32_t w0, uint32_t cur_w)
    {
        LocalTensor<float> acc = acc_buf.Get<float>();
        Duplicate(acc, 0.0f, w_tile);
        uint64_t base = static_cast<uint64_t>(n) * c_ch * h_len * w_len + w0;
        for (uint32_t h = 0; h < h_len; h++) {
            load_rows(base + static_cast<uint64_t>(h) * w_len, cur_w);
            min_and_accumulate(acc);
        }
        finish(acc, n, w0, cur_w);
    }

    // C rows of cur_w floats, GM row pitch = H*W floats, UB row pitch = w_tile floats
    __aicore__ inline void load_rows(uint64_t off, uint32_t cur_w)
    {
        LocalTensor<float> blk = in_q.AllocTensor<float>();
        uint32_t cur_al = (cur_w + 7) / 8 * 8;
        DataCopyExtParams cp{static_cast<uint16_t>(c_ch), static_cast<uint32_t>(cur_w * sizeof(float)),
                             static_cast<uint32_t>((h_len * w_len - cur_w) * sizeof(float)),
                             static_cast<uint32_t>((w_tile - cur_al) / 8), 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(blk, y_gm[off], cp, pad);
        in_q.EnQue(blk);
    }

    __aicore__ inline void min_and_accumulate(LocalTensor<float>& acc)
    {
        LocalTensor<float> blk = in_q.DeQue<float>();
        // fold the upper rows onto the lower ones until one row is left
        uint32_t rows = c_ch;
        while (rows > 1) {
            uint32_t half = rows / 2;
            uint32_t keep = rows - half;
            Min(blk, blk, blk[keep * w_tile], half * w_tile);
            PipeBarrier<PIPE_V>();
            rows = keep;
        }
        Add(acc, acc, blk, w_tile);
        in_q.FreeTensor(blk);
    }

    // exact gelu: 0.5 * x * (1 + erf(x / sqrt(2))), then + bias
    __aicore__ inline void finish(LocalTensor<float>& acc, uint32_t n, uint32_t w0, uint32_t cur_w)
    {
        LocalTensor<float> tmp = tmp_buf.Get<float>();
        LocalTensor<float> o = out_q.AllocTensor<float>();
        Muls(tmp, acc, INV_SQRT2, w_tile);
        Erf(o, tmp, w_tile);
        Adds(o, o, 1.0f, w_tile);
        Mul(o, o, acc, w_tile);
        Muls(o, o, 0.5f, w_tile);
        Adds(o, o, bias_v, w_tile);
        out_q.EnQue(o);

        o = out_q.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cur_w * sizeof(float)), 0, 0, 0};
        DataCopyPad(o_gm[static_cast<uint64_t>(n) * w_len + w0], o, cp);
        out_q.FreeTensor(o);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> in_q;
    TQue<QuePosition::VECOUT, 1> out_q;
    TBuf<QuePosition::VECCALC> acc_buf, tmp_buf;
    GlobalTensor<float> y_gm, b_gm, o_gm;
    uint32_t c_ch, h_len, w_len, w_tile, w_tiles, task_num;
    float bias_v;
};

extern "C" __global__ __aicore__ void conv_transpose2d_min_sum_gelu_add_custom(GM_ADDR y, GM_ADDR bias, GM_ADDR out,
                                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelMinSumGelu op;
    op.Init(y, bias, out, td.n_b, td.c_ch, td.h_len, td.w_len, td.w_tile, td.w_tiles, td.task_num);
    op.Process();
}
"""

project_json_src='''
[
    {
        "op": "ConvTranspose2dMinSumGeluAddCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''
