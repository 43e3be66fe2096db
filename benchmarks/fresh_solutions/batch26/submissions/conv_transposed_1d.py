project_json_src='''
[
    {
        "op": "ConvTransposed1dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "weight",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "attr": [
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "output_padding", "param_type": "optional", "type": "int", "default_value": "0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed1dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, lenIn);
  TILING_DATA_FIELD_DEF(uint32_t, lenOut);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);     // output positions per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow); // ceil(lenOut / tileLen)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed1dCustom, ConvTransposed1dCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed_1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed1dCustomTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t aivNum = ascendcPlatform.GetCoreNumAiv();

    auto xShape = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, L]
    auto wShape = context->GetInputShape(1)->GetStorageShape();   // [Cin, Cout, K]
    uint32_t batch = xShape.GetDim(0);
    uint32_t cin = xShape.GetDim(1);
    uint32_t lenIn = xShape.GetDim(2);
    uint32_t cout = wShape.GetDim(1);
    uint32_t k = wShape.GetDim(2);

    auto attrs = context->GetAttrs();
    uint32_t pad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t outPad = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    // stride 1: Lout = (L - 1) - 2*pad + K + output_padding
    uint32_t lenOut = lenIn - 1 - 2 * pad + k + outPad;

    // UB: cout accumulators + k shifted input rows, per output position;
    // plus the weight slice of one input channel (cout*k) and some slack.
    uint64_t reserve = (uint64_t)cout * k * sizeof(float) + 4096;
    uint64_t perPos = (uint64_t)(cout + k) * sizeof(float);
    uint64_t tile = (ubSize - reserve) / perPos;
    tile = tile / 8 * 8;
    if (tile > 1024) tile = 1024;
    if (tile < 8) tile = 8;
    uint32_t tileLen = static_cast<uint32_t>(tile);
    uint32_t tilesPerRow = (lenOut + tileLen - 1) / tileLen;

    tiling.set_batch(batch);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_kernel(k);
    tiling.set_lenIn(lenIn);
    tiling.set_lenOut(lenOut);
    tiling.set_pad(pad);
    tiling.set_tileLen(tileLen);
    tiling.set_tilesPerRow(tilesPerRow);

    uint32_t units = batch * tilesPerRow;
    context->SetBlockDim(units < aivNum ? units : aivNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t pad = *attrs->GetAttrPointer<int64_t>(0);
    int64_t outPad = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(3);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(1));
    y->SetDim(2, x->GetDim(2) - 1 - 2 * pad + w->GetDim(2) + outPad);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed1dCustom : public OpDef {
public:
    explicit ConvTransposed1dCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("output_padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTransposed1dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

// y[n, co, t] = sum_ci sum_k x[n, ci, t + pad - k] * w[ci, co, k]      (stride 1, groups 1)
//
// Work unit = (n, tile of tileLen output positions). All cout accumulators of the tile stay in UB;
// for every input channel the k shifted input windows are loaded once and broadcast into all
// accumulators with Axpy.
class KernelConvTranspose1d {
public:
    __aicore__ inline KernelConvTranspose1d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ConvTransposed1dCustomTilingData &td)
    {
        N = td.batch; Cin = td.cin; Cout = td.cout; K = td.kernel;
        L = td.lenIn; Lout = td.lenOut; pad = td.pad;
        T = td.tileLen; tilesPerRow = td.tilesPerRow;
        wSlice = (Cout * K + 7) / 8 * 8;

        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)N * Cin * L);
        wGm.SetGlobalBuffer((__gm__ float *)w, (uint64_t)Cin * Cout * K);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)N * Cout * Lout);

        pipe.InitBuffer(xQue, 1, K * T * sizeof(float));
        pipe.InitBuffer(accQue, 1, Cout * T * sizeof(float));
        pipe.InitBuffer(wBuf, wSlice * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t units = N * tilesPerRow;
        for (uint32_t u = AscendC::GetBlockIdx(); u < units; u += AscendC::GetBlockNum()) {
            uint32_t n = u / tilesPerRow;
            uint32_t t0 = (u % tilesPerRow) * T;
            uint32_t cnt = (t0 + T <= Lout) ? T : (Lout - t0);
            ComputeTile(n, t0, cnt);
        }
    }

private:
    __aicore__ inline void ComputeTile(uint32_t n, uint32_t t0, uint32_t cnt)
    {
        AscendC::LocalTensor<float> acc = accQue.AllocTensor<float>();
        AscendC::Duplicate(acc, 0.0f, Cout * T);
        AscendC::LocalTensor<float> wl = wBuf.Get<float>();

        for (uint32_t ci = 0; ci < Cin; ++ci) {
            LoadWeights(ci, wl);
            LoadShifted(n, ci, t0);
            AscendC::LocalTensor<float> xs = xQue.DeQue<float>();
            for (uint32_t co = 0; co < Cout; ++co) {
                AscendC::LocalTensor<float> dst = acc[co * T];
                for (uint32_t k = 0; k < K; ++k) {
                    float wv = wl.GetValue(co * K + k);
                    AscendC::Axpy(dst, xs[k * T], wv, T);
                }
            }
            xQue.FreeTensor(xs);
        }

        accQue.EnQue(acc);
        acc = accQue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
        for (uint32_t co = 0; co < Cout; ++co) {
            AscendC::DataCopyPad(yGm[((uint64_t)n * Cout + co) * Lout + t0], acc[co * T], cp);
        }
        accQue.FreeTensor(acc);
    }

    // w[ci, :, :] -> UB, values are consumed by the scalar unit
    __aicore__ inline void LoadWeights(uint32_t ci, AscendC::LocalTensor<float> &wl)
    {
        AscendC::PipeBarrier<PIPE_V>();   // previous Axpy calls already hold their scalars
        AscendC::DataCopyExtParams cp{1, Cout * K * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wl, wGm[(uint64_t)ci * Cout * K], cp, pp);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);
    }

    // xs[k*T + j] = x[n, ci, t0 + j + pad - k], zero outside [0, L)
    __aicore__ inline void LoadShifted(uint32_t n, uint32_t ci, uint32_t t0)
    {
        AscendC::LocalTensor<float> xs = xQue.AllocTensor<float>();
        uint64_t rowBase = ((uint64_t)n * Cin + ci) * L;
        bool edge = (t0 + pad < K) || (t0 + T + pad > L);
        if (edge) {
            AscendC::Duplicate(xs, 0.0f, K * T);
            event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_MTE2));
            AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(ev);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(ev);
        }
        for (uint32_t k = 0; k < K; ++k) {
            int64_t s = (int64_t)t0 + pad - k;       // source index for j = 0
            int64_t jLo = s < 0 ? -s : 0;            // first valid j (< 8 for small kernels)
            int64_t jHi = (int64_t)L - s;            // one past last valid j
            if (jHi > (int64_t)T) jHi = T;
            if (jHi <= jLo) continue;
            uint32_t n32 = static_cast<uint32_t>(jHi - jLo);
            AscendC::DataCopyExtParams cp{1, n32 * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pp{jLo > 0, static_cast<uint8_t>(jLo), 0, 0.0f};
            AscendC::DataCopyPad(xs[k * T], xGm[rowBase + (uint64_t)(s + jLo)], cp, pp);
        }
        xQue.EnQue(xs);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> xQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> accQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wBuf;
    AscendC::GlobalTensor<float> xGm, wGm, yGm;
    uint32_t N, Cin, Cout, K, L, Lout, pad, T, tilesPerRow, wSlice;
};

extern "C" __global__ __aicore__ void conv_transposed_1d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvTranspose1d op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transposed_1d_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                              int64_t stride, int64_t padding, int64_t output_padding,
                                              int64_t groups)
{
    // the kernel covers the stride-1 / groups-1 case used by the benchmark
    if (stride != 1 || groups != 1 || padding >= weight.size(2)) {
        return at::conv_transpose1d(x, weight, {}, {stride}, {padding}, {output_padding}, groups);
    }
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    int64_t lout = x.size(2) - 1 - 2 * padding + weight.size(2) + output_padding;
    at::Tensor y = at::empty({x.size(0), weight.size(1), lout}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed1dCustom, xc, wc, padding, output_padding, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_1d_custom", &conv_transposed_1d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_1d_custom", &conv_transposed_1d_custom_impl_npu, "ConvTranspose1d (no bias)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 output_padding: int = 0, groups: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv1d_transpose = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride,
                                                   padding=padding, output_padding=output_padding,
                                                   groups=groups, bias=bias)
        self.stride = stride
        self.padding = padding
        self.output_padding = output_padding
        self.groups = groups

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = custom_ops_lib.conv_transposed_1d_custom(x, self.conv1d_transpose.weight, self.stride,
                                                       self.padding, self.output_padding, self.groups)
        if self.conv1d_transpose.bias is not None:
            out = out + self.conv1d_transpose.bias.view(1, -1, 1)
        return out
'''
