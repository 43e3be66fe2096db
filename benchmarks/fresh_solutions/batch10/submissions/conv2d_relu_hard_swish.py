project_json_src='''
[
    {
        "op": "Conv2dReluHardSwishCustom",
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
            },
            {
                "name": "bias",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dReluHardSwishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowBlock);     // output rows computed together
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerImg);
  TILING_DATA_FIELD_DEF(uint32_t, totalBlocks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dReluHardSwishCustom, Conv2dReluHardSwishCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_relu_hard_swish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dReluHardSwishCustomTilingData tiling;
    auto xShape = context->GetInputShape(0)->GetStorageShape();  // N, C, H, W
    auto wShape = context->GetInputShape(1)->GetStorageShape();  // OC, C, K, K
    uint32_t batch = xShape.GetDim(0);
    uint32_t cin = xShape.GetDim(1);
    uint32_t h = xShape.GetDim(2);
    uint32_t w = xShape.GetDim(3);
    uint32_t cout = wShape.GetDim(0);
    uint32_t k = wShape.GetDim(2);
    if (h < k || w < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t oh = h - k + 1;
    uint32_t ow = w - k + 1;
    uint32_t owAlign = (ow + 7) / 8 * 8;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);

    // UB usage for a block of R output rows:
    //   weights + bias     : (OC*C*K*K + OC) floats
    //   accumulators x2    : 2 * OC * R * OWA
    //   input slab x2      : 2 * (R + K - 1) * OWA
    //   epilogue scratch   : R * OWA
    uint64_t fixedBytes = ((uint64_t)cout * cin * k * k + cout + 16) * 4 + 4096;
    uint32_t rowBlock = 1;
    for (uint32_t r = 8; r >= 1; --r) {
        uint64_t need = fixedBytes + (uint64_t)4 * owAlign * (2ULL * cout * r + 2ULL * (r + k - 1) + r);
        if (need <= ub) {
            rowBlock = r;
            break;
        }
    }
    if (rowBlock > oh) rowBlock = oh;

    uint32_t blocksPerImg = (oh + rowBlock - 1) / rowBlock;
    uint32_t totalBlocks = batch * blocksPerImg;
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > totalBlocks) cores = totalBlocks;

    tiling.set_inC(cin);
    tiling.set_inH(h);
    tiling.set_inW(w);
    tiling.set_outC(cout);
    tiling.set_kSize(k);
    tiling.set_outH(oh);
    tiling.set_outW(ow);
    tiling.set_outWAlign(owAlign);
    tiling.set_rowBlock(rowBlock);
    tiling.set_blocksPerImg(blocksPerImg);
    tiling.set_totalBlocks(totalBlocks);

    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
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
class Conv2dReluHardSwishCustom : public OpDef {
public:
    explicit Conv2dReluHardSwishCustom(const char* name) : OpDef(name)
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
OP_ADD(Conv2dReluHardSwishCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

// Direct conv (stride 1, no padding) on the vector unit, fused with relu + hardswish.
//
// Work item = (image n, block of R output rows). For every input channel ic and
// kernel column kw we DMA a slab of (R + K - 1) input rows starting at column kw,
// so each UB row is already shifted by kw and 32B aligned. Row (r + kh) of the slab
// is exactly the operand for output row r and kernel row kh, and because acc rows
// and slab rows share the same stride, one Axpy of length R*OWA covers all R rows:
//     acc[oc, 0:R, :] += w[oc, ic, kh, kw] * slab[kh : kh + R, :]
// Epilogue: y = relu(acc); y = y * min((y + 3) / 6, 1)   (y >= 0 after relu)
class KernelConv2dReluHardSwish {
public:
    __aicore__ inline KernelConv2dReluHardSwish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const Conv2dReluHardSwishCustomTilingData& t)
    {
        cin = t.inC; ih = t.inH; iw = t.inW; cout = t.outC; ks = t.kSize;
        oh = t.outH; ow = t.outW; owa = t.outWAlign; R = t.rowBlock;
        blocksPerImg = t.blocksPerImg; totalBlocks = t.totalBlocks;
        slabRows = R + ks - 1;
        wCount = cout * cin * ks * ks;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w, wCount);
        bGm.SetGlobalBuffer((__gm__ float*)b, cout);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(wBuf, ((wCount + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(bBuf, ((cout + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(slabQ, 2, slabRows * owa * sizeof(float));
        pipe.InitBuffer(accQ, 2, cout * R * owa * sizeof(float));
        pipe.InitBuffer(tmpBuf, R * owa * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LoadParams();
        uint32_t step = GetBlockNum();
        for (uint32_t blk = GetBlockIdx(); blk < totalBlocks; blk += step) {
            uint32_t n = blk / blocksPerImg;
            uint32_t row0 = (blk % blocksPerImg) * R;
            uint32_t rows = (oh - row0 < R) ? (oh - row0) : R;
            LocalTensor<float> acc = accQ.AllocTensor<float>();
            InitAcc(acc);
            Accumulate(acc, n, row0, rows);
            Epilogue(acc);
            accQ.EnQue(acc);
            Store(n, row0, rows);
        }
    }

private:
    __aicore__ inline void LoadParams()
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        LocalTensor<float> bl = bBuf.Get<float>();
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        DataCopyPad(wl, wGm, DataCopyExtParams{1, wCount * (uint32_t)sizeof(float), 0, 0, 0}, noPad);
        DataCopyPad(bl, bGm, DataCopyExtParams{1, cout * (uint32_t)sizeof(float), 0, 0, 0}, noPad);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void InitAcc(LocalTensor<float>& acc)
    {
        LocalTensor<float> bl = bBuf.Get<float>();
        for (uint32_t oc = 0; oc < cout; ++oc) {
            Duplicate(acc[oc * R * owa], bl.GetValue(oc), R * owa);
        }
    }

    __aicore__ inline void Accumulate(LocalTensor<float>& acc, uint32_t n, uint32_t row0, uint32_t rows)
    {
        LocalTensor<float> wl = wBuf.Get<float>();
        uint32_t inRows = rows + ks - 1;
        DataCopyExtParams cp{static_cast<uint16_t>(inRows), static_cast<uint32_t>(ow * sizeof(float)),
                             static_cast<uint32_t>((iw - ow) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};

        for (uint32_t ic = 0; ic < cin; ++ic) {
            uint64_t planeOff = ((uint64_t)n * cin + ic) * ih * iw + (uint64_t)row0 * iw;
            for (uint32_t kw = 0; kw < ks; ++kw) {
                LocalTensor<float> slab = slabQ.AllocTensor<float>();
                DataCopyPad(slab, xGm[planeOff + kw], cp, noPad);
                slabQ.EnQue(slab);
                slab = slabQ.DeQue<float>();

                for (uint32_t kh = 0; kh < ks; ++kh) {
                    LocalTensor<float> src = slab[kh * owa];
                    uint32_t wIdx = (ic * ks + kh) * ks + kw;     // + oc * cin*ks*ks
                    uint32_t wStride = cin * ks * ks;
                    for (uint32_t oc = 0; oc < cout; ++oc) {
                        Axpy(acc[oc * R * owa], src, wl.GetValue(wIdx + oc * wStride), rows * owa);
                    }
                }
                slabQ.FreeTensor(slab);
            }
        }
    }

    __aicore__ inline void Epilogue(LocalTensor<float>& acc)
    {
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        uint32_t total = cout * R * owa;
        Relu(acc, acc, total);
        uint32_t chunk = R * owa;
        for (uint32_t oc = 0; oc < cout; ++oc) {
            LocalTensor<float> a = acc[oc * chunk];
            Muls(tmp, a, 1.0f / 6.0f, chunk);
            Adds(tmp, tmp, 0.5f, chunk);
            Mins(tmp, tmp, 1.0f, chunk);
            Mul(a, a, tmp, chunk);
        }
    }

    __aicore__ inline void Store(uint32_t n, uint32_t row0, uint32_t rows)
    {
        LocalTensor<float> acc = accQ.DeQue<float>();
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(ow * sizeof(float)), 0, 0, 0};
        for (uint32_t oc = 0; oc < cout; ++oc) {
            uint64_t off = (((uint64_t)n * cout + oc) * oh + row0) * ow;
            DataCopyPad(yGm[off], acc[oc * R * owa], cp);
        }
        accQ.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> wBuf, bBuf, tmpBuf;
    TQue<TPosition::VECIN, 2> slabQ;
    TQue<TPosition::VECOUT, 2> accQ;
    GlobalTensor<float> xGm, wGm, bGm, yGm;

    uint32_t cin, ih, iw, cout, ks, oh, ow, owa, R;
    uint32_t blocksPerImg, totalBlocks, slabRows, wCount;
};

extern "C" __global__ __aicore__ void conv2d_relu_hard_swish_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConv2dReluHardSwish op;
    op.Init(x, weight, bias, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_relu_hard_swish_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                  const at::Tensor& bias)
{
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    int64_t oh = xc.size(2) - wc.size(2) + 1;
    int64_t ow = xc.size(3) - wc.size(3) + 1;
    at::Tensor result = at::empty({xc.size(0), wc.size(0), oh, ow}, xc.options());
    EXEC_NPU_CMD(aclnnConv2dReluHardSwishCustom, xc, wc, bc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_relu_hard_swish_custom", &conv2d_relu_hard_swish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_relu_hard_swish_custom", &conv2d_relu_hard_swish_custom_impl_npu,
          "conv2d + relu + hardswish (fused)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        return custom_ops_lib.conv2d_relu_hard_swish_custom(x, self.conv.weight, self.conv.bias)
'''
