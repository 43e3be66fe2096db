project_json_src='''
[
    {
        "op": "ConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "col",
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
            {
                "name": "stride",
                "param_type": "optional",
                "type": "int",
                "default_value": "1"
            },
            {
                "name": "padding",
                "param_type": "optional",
                "type": "int",
                "default_value": "0"
            },
            {
                "name": "dilation",
                "param_type": "optional",
                "type": "int",
                "default_value": "1"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);      // input row stride in UB (floats)
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);     // output row length rounded to 8
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // output rows (n, co, od, oh) per core
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustom,
                           ConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed3d_square_input_square_kernel_padded_dilated_strided_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

// Input "col" is the GEMM result W^T * x laid out as (N, Cout, K, K, K, D, H, W):
// col[n, co, kd, kh, kw, id, ih, iw] = sum_ci w[ci, co, kd, kh, kw] * x[n, ci, id, ih, iw].
// The kernel performs the col2vol accumulation with stride/padding/dilation.
namespace optiling {
static inline int64_t OutSize(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d)
{
    return (in - 1) * s - 2 * p + d * (k - 1) + 1;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 8) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t padding = *attrs->GetAttrPointer<int64_t>(1);
    int64_t dilation = *attrs->GetAttrPointer<int64_t>(2);

    uint32_t n = shape.GetDim(0);
    uint32_t co = shape.GetDim(1);
    uint32_t k = shape.GetDim(2);
    uint32_t d = shape.GetDim(5);
    uint32_t h = shape.GetDim(6);
    uint32_t w = shape.GetDim(7);
    uint32_t od = OutSize(d, k, stride, padding, dilation);
    uint32_t oh = OutSize(h, k, stride, padding, dilation);
    uint32_t ow = OutSize(w, k, stride, padding, dilation);

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint64_t totalRows = static_cast<uint64_t>(n) * co * od * oh;
    uint32_t usedCores = totalRows < coreNum ? static_cast<uint32_t>(totalRows) : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    tiling.set_batch(n);
    tiling.set_outChannels(co);
    tiling.set_kernel(k);
    tiling.set_inD(d);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outD(od);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_stride(stride);
    tiling.set_padding(padding);
    tiling.set_dilation(dilation);
    tiling.set_inWAlign((w + 7) / 8 * 8);
    tiling.set_outWAlign((ow + 7) / 8 * 8);
    tiling.set_rowsPerCore(totalRows / usedCores);
    tiling.set_tailRows(totalRows % usedCores);

    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* colShape = context->GetInputShape(0);
    auto attrs = context->GetAttrs();
    int64_t s = *attrs->GetAttrPointer<int64_t>(0);
    int64_t p = *attrs->GetAttrPointer<int64_t>(1);
    int64_t d = *attrs->GetAttrPointer<int64_t>(2);
    int64_t k = colShape->GetDim(2);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(5);
    yShape->SetDim(0, colShape->GetDim(0));
    yShape->SetDim(1, colShape->GetDim(1));
    yShape->SetDim(2, (colShape->GetDim(5) - 1) * s - 2 * p + d * (k - 1) + 1);
    yShape->SetDim(3, (colShape->GetDim(6) - 1) * s - 2 * p + d * (k - 1) + 1);
    yShape->SetDim(4, (colShape->GetDim(7) - 1) * s - 2 * p + d * (k - 1) + 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustom : public OpDef {
public:
    explicit ConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustom(const char* name) : OpDef(name)
    {
        this->Input("col")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// col2vol for a strided / padded / dilated transposed 3D convolution.
// Output row (n, co, od, oh) of length OW is
//   y[ow] = sum_{kd,kh,kw valid} col[n, co, kd, kh, kw, id, ih, iw]
// with id = (od + p - kd*dil) / s (must divide exactly and be in range), same
// for ih, iw. For a fixed (kd, kh) the K rows col[.., kw, id, ih, :] are loaded
// together and the per-kw scatter along W is done by a precomputed Gather
// table; out-of-range taps point at a zeroed slot behind the loaded rows.
class KernelCol2Vol {
public:
    __aicore__ inline KernelCol2Vol() {}

    __aicore__ inline void Init(GM_ADDR col, GM_ADDR y,
                                const ConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustomTilingData& t)
    {
        cout = t.outChannels;
        k = t.kernel;
        inD = t.inD; inH = t.inH; inW = t.inW;
        outD = t.outD; outH = t.outH; outW = t.outW;
        stride = t.stride; pad = t.padding; dil = t.dilation;
        inWAlign = t.inWAlign;
        outWAlign = t.outWAlign;
        zeroSlot = k * inWAlign;

        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < t.tailRows) {
            rowCount = t.rowsPerCore + 1;
            rowStart = blockIdx * (t.rowsPerCore + 1);
        } else {
            rowCount = t.rowsPerCore;
            rowStart = t.tailRows * (t.rowsPerCore + 1) + (blockIdx - t.tailRows) * t.rowsPerCore;
        }

        colGm.SetGlobalBuffer((__gm__ float*)col);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(colQueue, BUFFER_NUM, (zeroSlot + 8) * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, outWAlign * sizeof(float));
        pipe.InitBuffer(tmpBuf, outWAlign * sizeof(float));
        pipe.InitBuffer(offBuf, k * outWAlign * sizeof(uint32_t));
        BuildOffsets();
    }

    __aicore__ inline void Process()
    {
        uint64_t planeIn = static_cast<uint64_t>(inD) * inH * inW;
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint64_t row = rowStart + r;
            uint32_t oh = row % outH;
            uint64_t rest = row / outH;
            uint32_t od = rest % outD;
            uint64_t nc = rest / outD;          // n * Cout + co

            LocalTensor<float> acc = outQueue.AllocTensor<float>();
            Duplicate(acc, 0.0f, outWAlign);

            for (uint32_t kd = 0; kd < k; ++kd) {
                int32_t td = static_cast<int32_t>(od + pad) - static_cast<int32_t>(kd * dil);
                if (td < 0 || td % stride != 0 || td / stride >= static_cast<int32_t>(inD)) {
                    continue;
                }
                uint32_t id = td / stride;
                for (uint32_t kh = 0; kh < k; ++kh) {
                    int32_t th = static_cast<int32_t>(oh + pad) - static_cast<int32_t>(kh * dil);
                    if (th < 0 || th % stride != 0 || th / stride >= static_cast<int32_t>(inH)) {
                        continue;
                    }
                    uint32_t ih = th / stride;
                    // rows kw = 0..K-1 for this (kd, kh) are planeIn apart in GM
                    uint64_t base = ((nc * k + kd) * k + kh) * k * planeIn +
                                    static_cast<uint64_t>(id) * inH * inW + static_cast<uint64_t>(ih) * inW;
                    LoadTaps(base, planeIn);
                    AccumulateTaps(acc);
                }
            }
            outQueue.EnQue<float>(acc);
            StoreRow(row);
        }
    }

private:
    // offsets[kw][ow] = byte offset of col element feeding output ow via tap kw
    __aicore__ inline void BuildOffsets()
    {
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < k; ++kw) {
            for (uint32_t ow = 0; ow < outWAlign; ++ow) {
                uint32_t elem = zeroSlot;
                int32_t tw = static_cast<int32_t>(ow + pad) - static_cast<int32_t>(kw * dil);
                if (ow < outW && tw >= 0 && tw % stride == 0 && tw / stride < static_cast<int32_t>(inW)) {
                    elem = kw * inWAlign + tw / stride;
                }
                off.SetValue(kw * outWAlign + ow, elem * static_cast<uint32_t>(sizeof(float)));
            }
        }
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
    }

    __aicore__ inline void LoadTaps(uint64_t base, uint64_t planeIn)
    {
        LocalTensor<float> colLocal = colQueue.AllocTensor<float>();
        DataCopyExtParams params;
        params.blockCount = static_cast<uint16_t>(k);
        params.blockLen = inW * sizeof(float);
        params.srcStride = static_cast<uint32_t>((planeIn - inW) * sizeof(float));
        params.dstStride = 0;   // rows land at inWAlign stride
        params.rsv = 0;
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(colLocal, colGm[base], params, padParams);
        colQueue.EnQue(colLocal);
    }

    __aicore__ inline void AccumulateTaps(LocalTensor<float>& acc)
    {
        LocalTensor<float> colLocal = colQueue.DeQue<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        Duplicate(colLocal[zeroSlot], 0.0f, 8);
        PipeBarrier<PIPE_V>();
        for (uint32_t kw = 0; kw < k; ++kw) {
            Gather(tmp, colLocal, off[kw * outWAlign], 0, outW);
            PipeBarrier<PIPE_V>();
            Add(acc, acc, tmp, outW);
            PipeBarrier<PIPE_V>();
        }
        colQueue.FreeTensor(colLocal);
    }

    __aicore__ inline void StoreRow(uint64_t row)
    {
        LocalTensor<float> acc = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[row * outW], acc, params);
        outQueue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> colQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> tmpBuf;
    TBuf<QuePosition::VECCALC> offBuf;
    GlobalTensor<float> colGm;
    GlobalTensor<float> yGm;
    uint32_t cout, k;
    uint32_t inD, inH, inW;
    uint32_t outD, outH, outW;
    uint32_t stride, pad, dil;
    uint32_t inWAlign, outWAlign, zeroSlot;
    uint64_t rowStart;
    uint32_t rowCount;
};

extern "C" __global__ __aicore__ void conv_transposed3d_square_input_square_kernel_padded_dilated_strided_custom(
    GM_ADDR col, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCol2Vol op;
    op.Init(col, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// Transposed conv = GEMM (W^T x, on the cube unit) + col2vol (custom kernel).
// The batch is processed in chunks to keep the column buffer (Cout*K^3 x DHW
// per sample) bounded.
at::Tensor conv_transposed3d_square_input_square_kernel_padded_dilated_strided_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, int64_t stride, int64_t padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    const int64_t N = x.size(0);
    const int64_t Cin = x.size(1);
    const int64_t D = x.size(2);
    const int64_t H = x.size(3);
    const int64_t W = x.size(4);
    const int64_t Cout = weight.size(1);
    const int64_t K = weight.size(2);

    at::Tensor wt = weight.reshape({Cin, Cout * K * K * K}).t().contiguous();   // (Cout*K^3, Cin)
    const int64_t chunk = 4;
    std::vector<at::Tensor> outs;
    for (int64_t b0 = 0; b0 < N; b0 += chunk) {
        int64_t bs = std::min(chunk, N - b0);
        at::Tensor xs = x.slice(0, b0, b0 + bs).reshape({bs, Cin, D * H * W});
        at::Tensor col = at::matmul(wt, xs).contiguous().view({bs, Cout, K, K, K, D, H, W});
        const int64_t Do = (D - 1) * stride - 2 * padding + dilation * (K - 1) + 1;
        const int64_t Ho = (H - 1) * stride - 2 * padding + dilation * (K - 1) + 1;
        const int64_t Wo = (W - 1) * stride - 2 * padding + dilation * (K - 1) + 1;
        at::Tensor y = at::empty({bs, Cout, Do, Ho, Wo}, x.options());
        EXEC_NPU_CMD(aclnnConvTransposed3dSquareInputSquareKernelPaddedDilatedStridedCustom,
                     col, stride, padding, dilation, y);
        outs.push_back(y);
    }
    return outs.size() == 1 ? outs[0] : at::cat(outs, 0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed3d_square_input_square_kernel_padded_dilated_strided_custom",
           &conv_transposed3d_square_input_square_kernel_padded_dilated_strided_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed3d_square_input_square_kernel_padded_dilated_strided_custom",
          &conv_transposed3d_square_input_square_kernel_padded_dilated_strided_custom_impl_npu,
          "ConvTranspose3d (GEMM + col2vol)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, dilation: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv_transpose3d = torch.nn.ConvTranspose3d(
            in_channels, out_channels, kernel_size=(kernel_size, kernel_size, kernel_size),
            stride=stride, padding=padding, dilation=dilation, bias=bias)
        self.stride = stride
        self.padding = padding
        self.dilation = dilation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = custom_ops_lib.conv_transposed3d_square_input_square_kernel_padded_dilated_strided_custom(
            x, self.conv_transpose3d.weight, self.stride, self.padding, self.dilation)
        if self.conv_transpose3d.bias is not None:
            y = y + self.conv_transpose3d.bias.view(1, -1, 1, 1, 1)
        return y
'''
