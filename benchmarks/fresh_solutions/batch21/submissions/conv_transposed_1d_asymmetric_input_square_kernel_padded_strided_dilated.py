project_json_src='''
[
    {
        "op": "ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "required", "type": "int"},
            {"name": "dilation", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, lenIn);
  TILING_DATA_FIELD_DEF(uint32_t, lenOut);
  TILING_DATA_FIELD_DEF(int32_t, stride);
  TILING_DATA_FIELD_DEF(int32_t, pad);
  TILING_DATA_FIELD_DEF(int32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, qTile);        // outputs per residue class in one tile
  TILING_DATA_FIELD_DEF(uint32_t, qTiles);       // tiles along the length
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore); // (batch, tile) pairs per core
  TILING_DATA_FIELD_DEF(uint32_t, totalItems);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustom,
                           ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline int32_t FloorDiv(int32_t a, int32_t b)
{
    int32_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const auto& xs = context->GetInputShape(0)->GetOriginShape();   // [B, Cin, L]
    const auto& ws = context->GetInputShape(1)->GetOriginShape();   // [Cin, Cout, K]
    auto attrs = context->GetAttrs();
    int32_t stride = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(0));
    int32_t pad = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(1));
    int32_t dil = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(2));

    uint32_t batch = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t lenIn = xs.GetDim(2);
    uint32_t cout = ws.GetDim(1);
    uint32_t kernel = ws.GetDim(2);
    uint32_t lenOut = (lenIn - 1) * stride - 2 * pad + dil * (kernel - 1) + 1;

    // count the distinct input shifts the kernel needs; each one gets its own
    // staged copy of the input window in UB
    int32_t shifts[64];
    uint32_t numShifts = 0;
    for (int32_t r = 0; r < stride; ++r) {
        for (uint32_t k = 0; k < kernel; ++k) {
            int32_t num = r + pad - static_cast<int32_t>(k) * dil;
            if (((num % stride) + stride) % stride != 0) continue;
            int32_t s = FloorDiv(num, stride);
            bool seen = false;
            for (uint32_t i = 0; i < numShifts; ++i) seen = seen || (shifts[i] == s);
            if (!seen && numShifts < 64) shifts[numShifts++] = s;
        }
    }
    if (numShifts == 0) numShifts = 1;

    // UB budget for the staged input: ~96KB
    const uint32_t inputBudget = 96 * 1024;
    uint32_t qTile = inputBudget / (numShifts * cin * sizeof(float));
    qTile = qTile / 64 * 64;
    if (qTile > 1024) qTile = 1024;
    if (qTile < 64) qTile = 64;
    uint32_t numQ = (lenOut + stride - 1) / stride;
    if (qTile > numQ) qTile = (numQ + 7) / 8 * 8;
    uint32_t qTiles = (numQ + qTile - 1) / qTile;

    uint32_t totalItems = batch * qTiles;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) coreNum = 1;
    uint32_t itemsPerCore = (totalItems + coreNum - 1) / coreNum;
    uint32_t blockDim = (totalItems + itemsPerCore - 1) / itemsPerCore;

    ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustomTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_kernel(kernel);
    tiling.set_lenIn(lenIn);
    tiling.set_lenOut(lenOut);
    tiling.set_stride(stride);
    tiling.set_pad(pad);
    tiling.set_dilation(dil);
    tiling.set_qTile(qTile);
    tiling.set_qTiles(qTiles);
    tiling.set_itemsPerCore(itemsPerCore);
    tiling.set_totalItems(totalItems);

    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    auto attrs = context->GetAttrs();
    int64_t stride = *attrs->GetAttrPointer<int64_t>(0);
    int64_t pad = *attrs->GetAttrPointer<int64_t>(1);
    int64_t dil = *attrs->GetAttrPointer<int64_t>(2);
    int64_t lenOut = (xs->GetDim(2) - 1) * stride - 2 * pad + dil * (ws->GetDim(2) - 1) + 1;
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(3);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, lenOut);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustom : public OpDef {
public:
    explicit ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("stride").Int();
        this->Attr("padding").Int();
        this->Attr("dilation").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t MAX_TAPS = 64;

/*
 * Transposed 1-D convolution, polyphase form.
 *
 * y[b, co, o] = sum_{ci,k} x[b, ci, i] * w[ci, co, k]   with  o = i*stride - pad + k*dil.
 * Write o = q*stride + r. Tap k contributes to residue r only if (r + pad - k*dil) is a
 * multiple of stride, and then i = q + shift with shift = (r + pad - k*dil) / stride.
 * So every residue class is a plain correlation over q with a few shifted copies of x.
 *
 * Per work item (b, q-tile):
 *   - stage one shifted copy of x[b, :, q0+shift : q0+shift+Q] per distinct shift
 *     (zero padded at the borders, so every vector operand stays 32B aligned)
 *   - for every output channel accumulate the residue planes with Axpy, then
 *     interleave them (vector Gather) into a contiguous output segment.
 */
class KernelConvTranspose1d {
public:
    __aicore__ inline KernelConvTranspose1d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustomTilingData& t)
    {
        batch = t.batch; cin = t.cin; cout = t.cout; kSize = t.kernel;
        lenIn = t.lenIn; lenOut = t.lenOut;
        stride = t.stride; pad = t.pad; dil = t.dilation;
        Q = t.qTile; qTiles = t.qTiles;
        itemBegin = GetBlockIdx() * t.itemsPerCore;
        itemEnd = itemBegin + t.itemsPerCore;
        if (itemEnd > t.totalItems) itemEnd = t.totalItems;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)batch * cin * lenIn);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cin * cout * kSize);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)batch * cout * lenOut);

        BuildTaps();

        uint32_t wCount = cin * cout * kSize;
        wAligned = (wCount + 7) / 8 * 8;
        pipe.InitBuffer(wBuf, wAligned * sizeof(float));
        pipe.InitBuffer(xBuf, numShifts * cin * Q * sizeof(float));
        pipe.InitBuffer(accBuf, stride * Q * sizeof(float));
        pipe.InitBuffer(offBuf, stride * Q * sizeof(uint32_t));
        pipe.InitBuffer(outQue, 2, stride * Q * sizeof(float));

        // weights stay resident for the whole kernel
        LocalTensor<float> wLocal = wBuf.Get<float>();
        DataCopyExtParams cp{1, wCount * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> padp{false, 0, 0, 0.0f};
        DataCopyPad(wLocal, wGm, cp, padp);

        // interleave table: out[j] = acc[(j % stride) * Q + j / stride]  (byte offsets)
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        for (uint32_t j = 0; j < stride * Q; ++j) {
            offs.SetValue(j, ((j % stride) * Q + j / stride) * (uint32_t)sizeof(float));
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t item = itemBegin; item < itemEnd; ++item) {
            uint32_t b = item / qTiles;
            uint32_t q0 = (item % qTiles) * Q;
            StageInput(b, q0);
            for (uint32_t co = 0; co < cout; ++co) {
                ComputeChannel(co);
                StoreChannel(b, co, q0);
            }
        }
    }

private:
    __aicore__ inline void BuildTaps()
    {
        numShifts = 0;
        numTaps = 0;
        for (int32_t r = 0; r < stride; ++r) {
            for (uint32_t k = 0; k < kSize; ++k) {
                int32_t num = r + pad - (int32_t)k * dil;
                int32_t rem = num % stride;
                if (rem != 0) continue;          // k never lands on residue r
                int32_t s = num / stride;        // exact, so truncation is fine
                uint32_t si = 0;
                while (si < numShifts && shiftVal[si] != s) ++si;
                if (si == numShifts) shiftVal[numShifts++] = s;
                if (numTaps < MAX_TAPS) {
                    tapRes[numTaps] = (uint32_t)r;
                    tapK[numTaps] = k;
                    tapShift[numTaps] = si;
                    ++numTaps;
                }
            }
        }
        if (numShifts == 0) {
            shiftVal[0] = 0;
            numShifts = 1;
        }
    }

    // xBuf[s][ci][0..Q) = x[b, ci, q0 + shift_s + i]   (0 outside [0, lenIn))
    __aicore__ inline void StageInput(uint32_t b, uint32_t q0)
    {
        LocalTensor<float> xs = xBuf.Get<float>();
        PipeBarrier<PIPE_ALL>();   // previous item's vector reads must be done
        for (uint32_t s = 0; s < numShifts; ++s) {
            int32_t start = (int32_t)q0 + shiftVal[s];
            int32_t stop = start + (int32_t)Q;
            int32_t lo = start < 0 ? 0 : start;
            int32_t hi = stop > (int32_t)lenIn ? (int32_t)lenIn : stop;
            uint32_t leftPad = (uint32_t)(lo - start);
            bool border = (lo != start) || (hi != stop);
            if (border) {
                Duplicate(xs[s * cin * Q], 0.0f, cin * Q);
                PipeBarrier<PIPE_ALL>();
            }
            if (hi <= lo) continue;
            uint32_t cnt = (uint32_t)(hi - lo);
            uint8_t rightPad = (uint8_t)((8 - (leftPad + cnt) % 8) % 8);
            for (uint32_t ci = 0; ci < cin; ++ci) {
                DataCopyExtParams cp{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
                DataCopyPadExtParams<float> padp{border, (uint8_t)leftPad, rightPad, 0.0f};
                DataCopyPad(xs[(s * cin + ci) * Q], xGm[((uint64_t)b * cin + ci) * lenIn + lo], cp, padp);
            }
        }
        PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void ComputeChannel(uint32_t co)
    {
        LocalTensor<float> xs = xBuf.Get<float>();
        LocalTensor<float> wLocal = wBuf.Get<float>();
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, stride * Q);

        for (uint32_t t = 0; t < numTaps; ++t) {
            uint32_t r = tapRes[t];
            uint32_t k = tapK[t];
            uint32_t sBase = tapShift[t] * cin * Q;
            for (uint32_t ci = 0; ci < cin; ++ci) {
                float wv = wLocal.GetValue((ci * cout + co) * kSize + k);
                Axpy(acc[r * Q], xs[sBase + ci * Q], wv, Q);
            }
        }

        LocalTensor<float> outLocal = outQue.AllocTensor<float>();
        if (stride == 1) {
            DataCopy(outLocal, acc, Q);
        } else {
            LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
            Gather(outLocal, acc, offs, (uint32_t)0, stride * Q);
        }
        outQue.EnQue(outLocal);
    }

    __aicore__ inline void StoreChannel(uint32_t b, uint32_t co, uint32_t q0)
    {
        LocalTensor<float> outLocal = outQue.DeQue<float>();
        uint32_t oStart = q0 * stride;
        uint32_t n = stride * Q;
        if (oStart + n > lenOut) n = lenOut - oStart;
        DataCopyExtParams cp{1, n * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPad(yGm[((uint64_t)b * cout + co) * lenOut + oStart], outLocal, cp);
        outQue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> wBuf, xBuf, accBuf, offBuf;
    TQue<QuePosition::VECOUT, 2> outQue;
    GlobalTensor<float> xGm, wGm, yGm;

    uint32_t batch, cin, cout, kSize, lenIn, lenOut;
    int32_t stride, pad, dil;
    uint32_t Q, qTiles, itemBegin, itemEnd, wAligned;

    int32_t shiftVal[MAX_TAPS];
    uint32_t numShifts;
    uint32_t tapRes[MAX_TAPS], tapK[MAX_TAPS], tapShift[MAX_TAPS];
    uint32_t numTaps;
};

extern "C" __global__ __aicore__ void conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
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

at::Tensor conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, int64_t stride, int64_t padding, int64_t dilation)
{
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    int64_t lenOut = (xc.size(2) - 1) * stride - 2 * padding + dilation * (wc.size(2) - 1) + 1;
    at::Tensor y = at::empty({xc.size(0), wc.size(1), lenOut}, xc.options());
    EXEC_NPU_CMD(aclnnConvTransposed1dAsymmetricInputSquareKernelPaddedStridedDilatedCustom,
                 xc, wc, stride, padding, dilation, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated_custom",
           &conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated_custom",
          &conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated_custom_impl_npu,
          "ConvTranspose1d (no bias)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, dilation: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv1d_transpose = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride,
                                                   padding=padding, dilation=dilation, bias=bias)
        self.stride = stride
        self.padding = padding
        self.dilation = dilation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = custom_ops_lib.conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated_custom(
            x, self.conv1d_transpose.weight, self.stride, self.padding, self.dilation)
        if self.conv1d_transpose.bias is not None:
            y = y + self.conv1d_transpose.bias.view(1, -1, 1)
        return y
'''
