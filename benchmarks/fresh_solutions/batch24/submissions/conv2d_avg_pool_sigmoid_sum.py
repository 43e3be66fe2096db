project_json_src='''
[
    {
        "op": "Conv2dAvgPoolSigmoidSumCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "conv_out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "pool_kernel_size", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dAvgPoolSigmoidSumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, pool);          // window == stride
  TILING_DATA_FIELD_DEF(uint32_t, pooledH);
  TILING_DATA_FIELD_DEF(uint32_t, pooledW);
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);     // UB row pitch (width rounded to 64 floats)
  TILING_DATA_FIELD_DEF(uint32_t, batchPerCore);
  TILING_DATA_FIELD_DEF(float, invArea);          // 1 / (pool * pool)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dAvgPoolSigmoidSumCustom, Conv2dAvgPoolSigmoidSumCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_avg_pool_sigmoid_sum_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dAvgPoolSigmoidSumCustomTilingData tiling;
    const gert::Shape s = context->GetInputShape(0)->GetOriginShape();   // [N, C, H, W]
    uint32_t N = s.GetDim(0), C = s.GetDim(1), H = s.GetDim(2), W = s.GetDim(3);
    uint32_t k = static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0));
    if (k == 0 || H < k || W < k) {
        return ge::GRAPH_FAILED;
    }

    uint32_t cores = 32;
    if (cores > N) cores = N;
    uint32_t bpc = (N + cores - 1) / cores;
    cores = (N + bpc - 1) / bpc;

    tiling.set_batch(N);
    tiling.set_channels(C);
    tiling.set_height(H);
    tiling.set_width(W);
    tiling.set_pool(k);
    tiling.set_pooledH(H / k);     // AvgPool2d floors, trailing rows/cols are dropped
    tiling.set_pooledW(W / k);
    tiling.set_rowStride((W + 63) / 64 * 64);
    tiling.set_batchPerCore(bpc);
    tiling.set_invArea(1.0f / static_cast<float>(k * k));

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
    const gert::Shape* in = context->GetInputShape(0);
    gert::Shape* out = context->GetOutputShape(0);
    out->SetDimNum(1);
    out->SetDim(0, in->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dAvgPoolSigmoidSumCustom : public OpDef {
public:
    explicit Conv2dAvgPoolSigmoidSumCustom(const char* name) : OpDef(name)
    {
        this->Input("conv_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("pool_kernel_size").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dAvgPoolSigmoidSumCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FP32_PER_REPEAT = 64;

// y[n] = sum_{c, i, j} sigmoid( avg_pool_kxk(conv_out)[n, c, i, j] )
// For one pooled output row we DMA the k source rows (padded per row), add them vertically,
// then collapse groups of k neighbours horizontally.  For k in {2, 4, 8} the horizontal step
// is log2(k) PairReduceSum passes; other k fall back to scalar code.
class KernelPoolSigmoidSum {
public:
    __aicore__ inline KernelPoolSigmoidSum() {}
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, uint32_t N, uint32_t C, uint32_t H, uint32_t W,
                                uint32_t k, uint32_t Hp, uint32_t Wp, uint32_t stride,
                                uint32_t bpc, float invArea)
    {
        this->C = C; this->H = H; this->W = W; this->k = k;
        this->Hp = Hp; this->Wp = Wp; this->stride = stride; this->invArea = invArea;
        nBegin = GetBlockIdx() * bpc;
        nCount = N > nBegin ? N - nBegin : 0;
        if (nCount > bpc) nCount = bpc;
        padPitch = (W + 7) / 8 * 8;   // DataCopyPad pads every row to 32B

        inGm.SetGlobalBuffer((__gm__ float*)in, static_cast<uint64_t>(N) * C * H * W);
        outGm.SetGlobalBuffer((__gm__ float*)out + nBegin, bpc);

        pipe.InitBuffer(rowQue, BUFFER_NUM, k * padPitch * sizeof(float) + 256);
        pipe.InitBuffer(vsumBuf, stride * sizeof(float));
        pipe.InitBuffer(pairBuf, stride * sizeof(float));
        pipe.InitBuffer(accBuf, stride * sizeof(float));
        pipe.InitBuffer(workBuf, stride * sizeof(float));
        pipe.InitBuffer(resBuf, 64 * sizeof(float));
        pipe.InitBuffer(outBuf, (bpc + 7) / 8 * 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (nCount == 0) return;
        LocalTensor<float> outL = outBuf.Get<float>();
        for (uint32_t b = 0; b < nCount; ++b) {
            outL.SetValue(b, OneImage(nBegin + b));
        }
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e);
        WaitFlag<HardEvent::S_MTE3>(e);
        DataCopyExtParams cp{1, static_cast<uint32_t>(nCount * sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm, outL, cp);
    }

private:
    __aicore__ inline float OneImage(uint32_t n)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, stride);
        uint64_t imgBase = static_cast<uint64_t>(n) * C * H * W;
        for (uint32_t c = 0; c < C; ++c) {
            uint64_t planeBase = imgBase + static_cast<uint64_t>(c) * H * W;
            for (uint32_t ph = 0; ph < Hp; ++ph) {
                LoadWindowRows(planeBase + static_cast<uint64_t>(ph) * k * W);
                PoolRow(acc);
            }
        }
        LocalTensor<float> res = resBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceSum(res, acc, work, Wp);
        event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        return res.GetValue(0);
    }

    __aicore__ inline void LoadWindowRows(uint64_t off)
    {
        LocalTensor<float> rows = rowQue.AllocTensor<float>();
        // k consecutive rows of W floats, each padded to padPitch in UB
        DataCopyExtParams cp{static_cast<uint16_t>(k), static_cast<uint32_t>(W * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(rows, inGm[off], cp, pad);
        rowQue.EnQue(rows);
    }

    __aicore__ inline void PoolRow(LocalTensor<float>& acc)
    {
        LocalTensor<float> rows = rowQue.DeQue<float>();
        LocalTensor<float> vsum = vsumBuf.Get<float>();
        LocalTensor<float> pr = pairBuf.Get<float>();

        // vertical sum of the k rows of the window
        if (k == 1) {
            Adds(vsum, rows, 0.0f, padPitch);
        } else {
            Add(vsum, rows, rows[padPitch], padPitch);
            for (uint32_t i = 2; i < k; ++i) {
                Add(vsum, vsum, rows[i * padPitch], padPitch);
            }
        }
        rowQue.FreeTensor(rows);

        // horizontal sum of k neighbours
        LocalTensor<float> pooled = vsum;
        if (k == 2 || k == 4 || k == 8) {
            uint32_t len = stride;
            LocalTensor<float> src = vsum;
            LocalTensor<float> dst = pr;
            for (uint32_t step = k; step > 1; step >>= 1) {
                int32_t rep = static_cast<int32_t>((len + FP32_PER_REPEAT - 1) / FP32_PER_REPEAT);
                PairReduceSum(dst, src, rep, static_cast<int32_t>(FP32_PER_REPEAT), 1, 1, 8);
                len = len / 2;
                LocalTensor<float> t = src; src = dst; dst = t;
            }
            pooled = src;
        } else {
            event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vs);
            WaitFlag<HardEvent::V_S>(vs);
            for (uint32_t j = 0; j < Wp; ++j) {
                float s = 0.0f;
                for (uint32_t q = 0; q < k; ++q) {
                    s += vsum.GetValue(j * k + q);
                }
                pr.SetValue(j, s);
            }
            event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(sv);
            WaitFlag<HardEvent::S_V>(sv);
            pooled = pr;
        }

        // mean, sigmoid, accumulate (only the first Wp lanes are valid windows)
        LocalTensor<float> work = workBuf.Get<float>();
        Muls(work, pooled, invArea, Wp);
        Sigmoid(work, work, Wp);
        Add(acc, acc, work, Wp);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQue;
    TBuf<QuePosition::VECCALC> vsumBuf, pairBuf, accBuf, workBuf, resBuf, outBuf;
    GlobalTensor<float> inGm, outGm;
    uint32_t C, H, W, k, Hp, Wp, stride, padPitch, nBegin, nCount;
    float invArea;
};

extern "C" __global__ __aicore__ void conv2d_avg_pool_sigmoid_sum_custom(GM_ADDR conv_out, GM_ADDR y,
                                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelPoolSigmoidSum op;
    op.Init(conv_out, y, td.batch, td.channels, td.height, td.width, td.pool, td.pooledH, td.pooledW,
            td.rowStride, td.batchPerCore, td.invArea);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_avg_pool_sigmoid_sum_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                       const at::Tensor& bias, int64_t pool_kernel_size)
{
    // convolution on the cube unit, pooling/sigmoid/reduction fused in the custom kernel
    at::Tensor conv = at::conv2d(x, weight, bias).contiguous();
    at::Tensor y = at::empty({conv.size(0)}, conv.options());
    EXEC_NPU_CMD(aclnnConv2dAvgPoolSigmoidSumCustom, conv, pool_kernel_size, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_avg_pool_sigmoid_sum_custom", &conv2d_avg_pool_sigmoid_sum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_avg_pool_sigmoid_sum_custom", &conv2d_avg_pool_sigmoid_sum_custom_impl_npu,
          "conv2d -> avg_pool2d -> sigmoid -> sum over C,H,W");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, pool_kernel_size):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.pool_kernel_size = pool_kernel_size

    def forward(self, x):
        return custom_ops_lib.conv2d_avg_pool_sigmoid_sum_custom(
            x, self.conv.weight, self.conv.bias, self.pool_kernel_size)
'''
