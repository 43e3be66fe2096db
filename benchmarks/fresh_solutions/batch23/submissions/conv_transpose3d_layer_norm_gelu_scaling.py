project_json_src='''
[
    {
        "op": "ConvTranspose3dLayerNormGeluScalingCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "gamma", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "beta", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"},
            {"name": "scaling_factor", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dLayerNormGeluScalingCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);        // normalized size (last dim)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dLayerNormGeluScalingCustom, ConvTranspose3dLayerNormGeluScalingCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose3d_layer_norm_gelu_scaling_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t TILE_ELEMS = 8192;   // floats per UB tile (32 KB)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose3dLayerNormGeluScalingCustomTilingData td;
    const gert::Shape &s = context->GetInputShape(0)->GetStorageShape();
    uint32_t dims = s.GetDimNum();
    uint32_t rowLen = s.GetDim(dims - 1);
    uint64_t total = s.GetShapeSize();
    uint32_t rows = static_cast<uint32_t>(total / rowLen);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;
    uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
    uint32_t used = (rows + rowsPerCore - 1) / rowsPerCore;

    uint32_t rowsPerTile = TILE_ELEMS / rowLen;
    if (rowsPerTile == 0) rowsPerTile = 1;

    auto attrs = context->GetAttrs();
    const float *eps = attrs->GetAttrPointer<float>(0);
    const float *scale = attrs->GetAttrPointer<float>(1);

    td.set_rowLen(rowLen);
    td.set_totalRows(rows);
    td.set_rowsPerCore(rowsPerCore);
    td.set_rowsPerTile(rowsPerTile);
    td.set_eps(*eps);
    td.set_scale(*scale);

    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose3dLayerNormGeluScalingCustom : public OpDef {
public:
    explicit ConvTranspose3dLayerNormGeluScalingCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("scaling_factor").AttrType(OPTIONAL).Float(1.0f);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTranspose3dLayerNormGeluScalingCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr float SQRT_2_OVER_PI = 0.7978845608028654f;

// nn.LayerNorm(out_channels) on an NCDHW tensor normalizes the LAST dim (W'), which equals
// out_channels for this configuration. Each "row" below is one W' vector.
// Rows are assumed to be 32-byte aligned (rowLen % 8 == 0), true for W' = 64.
class KernelLnGeluScale {
public:
    __aicore__ inline KernelLnGeluScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const ConvTranspose3dLayerNormGeluScalingCustomTilingData &td)
    {
        rowLen = td.rowLen;
        rowsPerTile = td.rowsPerTile;
        eps = td.eps;
        scale = td.scale;
        invN = 1.0f / static_cast<float>(rowLen);

        uint32_t first = AscendC::GetBlockIdx() * td.rowsPerCore;
        myRows = 0;
        if (first < td.totalRows) {
            myRows = td.totalRows - first;
            if (myRows > td.rowsPerCore) myRows = td.rowsPerCore;
        }
        xGm.SetGlobalBuffer((__gm__ float *)x + (uint64_t)first * rowLen);
        yGm.SetGlobalBuffer((__gm__ float *)y + (uint64_t)first * rowLen);
        gGm.SetGlobalBuffer((__gm__ float *)gamma, rowLen);
        bGm.SetGlobalBuffer((__gm__ float *)beta, rowLen);

        uint32_t tileBytes = rowsPerTile * rowLen * sizeof(float);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQ, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(gammaBuf, rowLen * sizeof(float));
        pipe.InitBuffer(betaBuf, rowLen * sizeof(float));
        pipe.InitBuffer(sqBuf, rowLen * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
        pipe.InitBuffer(geluBuf, tileBytes);
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) return;
        LoadAffine();
        uint32_t done = 0;
        while (done < myRows) {
            uint32_t n = myRows - done;
            if (n > rowsPerTile) n = rowsPerTile;
            CopyIn(done, n);
            Compute(n);
            CopyOut(done, n);
            done += n;
        }
    }

private:
    __aicore__ inline void LoadAffine()
    {
        AscendC::LocalTensor<float> g = gammaBuf.Get<float>();
        AscendC::LocalTensor<float> b = betaBuf.Get<float>();
        AscendC::DataCopy(g, gGm, rowLen);
        AscendC::DataCopy(b, bGm, rowLen);
        // the gamma/beta loads must land before the vector unit reads them
        event_t evt = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(evt);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(evt);
    }

    __aicore__ inline void CopyIn(uint32_t rowOff, uint32_t n)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::DataCopy(xl, xGm[(uint64_t)rowOff * rowLen], n * rowLen);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::LocalTensor<float> g = gammaBuf.Get<float>();
        AscendC::LocalTensor<float> b = betaBuf.Get<float>();
        AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> red = redBuf.Get<float>();
        AscendC::LocalTensor<float> tmp = geluBuf.Get<float>();

        for (uint32_t r = 0; r < n; ++r) {
            AscendC::LocalTensor<float> row = xl[r * rowLen];
            AscendC::LocalTensor<float> out = yl[r * rowLen];

            AscendC::ReduceSum<float>(red, row, sq, rowLen);
            AscendC::PipeBarrier<PIPE_ALL>();
            float mean = red.GetValue(0) * invN;

            AscendC::Adds(out, row, -mean, rowLen);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Mul(sq, out, out, rowLen);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::ReduceSum<float>(red, sq, sq, rowLen);
            AscendC::PipeBarrier<PIPE_ALL>();
            float var = red.GetValue(0) * invN;
            float rstd = 1.0f / sqrt(var + eps);

            AscendC::Muls(out, out, rstd, rowLen);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Mul(out, out, g, rowLen);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Add(out, out, b, rowLen);
        }
        AscendC::PipeBarrier<PIPE_V>();

        // GELU (tanh form) over the whole tile, then the scaling factor
        uint32_t cnt = n * rowLen;
        AscendC::Mul(tmp, yl, yl, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(tmp, tmp, 0.044715f, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(tmp, tmp, 1.0f, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(tmp, tmp, yl, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(tmp, tmp, SQRT_2_OVER_PI, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Tanh(tmp, tmp, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(tmp, tmp, 1.0f, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(yl, yl, tmp, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(yl, yl, 0.5f * scale, cnt);

        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t rowOff, uint32_t n)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        AscendC::DataCopy(yGm[(uint64_t)rowOff * rowLen], yl, n * rowLen);
        outQ.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> gammaBuf, betaBuf, sqBuf, redBuf, geluBuf;
    AscendC::GlobalTensor<float> xGm, yGm, gGm, bGm;
    uint32_t rowLen, rowsPerTile, myRows;
    float eps, scale, invN;
};

extern "C" __global__ __aicore__ void conv_transpose3d_layer_norm_gelu_scaling_custom(
    GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelLnGeluScale op;
    op.Init(x, gamma, beta, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_layer_norm_gelu_scaling_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
    const at::Tensor& gamma, const at::Tensor& beta,
    int64_t stride, int64_t padding, double eps, double scaling_factor)
{
    // transposed convolution through the built-in operator
    at::Tensor conv = at::conv_transpose3d(x, weight, bias, {stride, stride, stride},
                                           {padding, padding, padding}).contiguous();
    TORCH_CHECK(conv.size(-1) == gamma.numel(), "LayerNorm size must match the last dim");
    at::Tensor y = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConvTranspose3dLayerNormGeluScalingCustom, conv, gamma, beta, eps, scaling_factor, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_layer_norm_gelu_scaling_custom", &conv_transpose3d_layer_norm_gelu_scaling_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_layer_norm_gelu_scaling_custom",
          &conv_transpose3d_layer_norm_gelu_scaling_custom_impl_npu,
          "conv_transpose3d + layer_norm + gelu + scaling");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, bias=True, eps=1e-5, scaling_factor=1.0):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)
        self.layer_norm = nn.LayerNorm(out_channels, eps=eps)
        self.stride = stride
        self.padding = padding
        self.eps = eps
        self.scaling_factor = scaling_factor

    def forward(self, x):
        bias = self.conv_transpose.bias
        if bias is None:
            bias = torch.zeros(self.conv_transpose.out_channels, device=x.device, dtype=x.dtype)
        return custom_ops_lib.conv_transpose3d_layer_norm_gelu_scaling_custom(
            x, self.conv_transpose.weight, bias,
            self.layer_norm.weight, self.layer_norm.bias,
            self.stride, self.padding, self.eps, self.scaling_factor)
'''
