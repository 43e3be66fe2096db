project_json_src='''
[
    {
        "op": "ConvDepthwise2dSquareInputSquareKernelCustom",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvDepthwise2dSquareInputSquareKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeNum);      // batch * channels
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);     // UB 中每行占用的 float 数（32B 对齐）
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerBlk);    // 每次计算的输出行数
  TILING_DATA_FIELD_DEF(uint32_t, blkPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, totalBlk);
  TILING_DATA_FIELD_DEF(uint32_t, baseBlk);       // 每核基本任务数
  TILING_DATA_FIELD_DEF(uint32_t, tailCore);      // 前 tailCore 个核多做一个
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvDepthwise2dSquareInputSquareKernelCustom, ConvDepthwise2dSquareInputSquareKernelCustomTilingData)
}
"""

host_operator_src="""
#include "conv_depthwise2d_square_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UB_BUDGET = 150 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvDepthwise2dSquareInputSquareKernelCustomTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t n = xs.GetDim(0);
    uint32_t c = xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t w = xs.GetDim(3);
    uint32_t k = ws.GetDim(2);          // weight: [C, 1, K, K]
    uint32_t ho = h - k + 1;            // stride = 1, padding = 0
    uint32_t wo = w - k + 1;
    uint32_t rowStride = (wo + 7) / 8 * 8;

    // UB 占用：输入 2*(R+K-1)*rowStride + 输出 2*R*rowStride（均双缓冲）
    uint32_t rows = 64;
    while (rows > 1 && (2 * (rows + k - 1) + 2 * rows) * rowStride * sizeof(float) > UB_BUDGET) {
        rows--;
    }
    if (rows > ho) {
        rows = ho;
    }
    uint32_t blkPerPlane = (ho + rows - 1) / rows;
    uint32_t totalBlk = n * c * blkPerPlane;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    if (coreNum > totalBlk) {
        coreNum = totalBlk;
    }
    context->SetBlockDim(coreNum);

    td.set_channels(c);
    td.set_planeNum(n * c);
    td.set_hin(h);
    td.set_win(w);
    td.set_ksize(k);
    td.set_hout(ho);
    td.set_wout(wo);
    td.set_rowStride(rowStride);
    td.set_rowsPerBlk(rows);
    td.set_blkPerPlane(blkPerPlane);
    td.set_totalBlk(totalBlk);
    td.set_baseBlk(totalBlk / coreNum);
    td.set_tailCore(totalBlk % coreNum);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsSize = context->GetWorkspaceSizes(1);
    wsSize[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    *y = *x;
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvDepthwise2dSquareInputSquareKernelCustom : public OpDef {
public:
    explicit ConvDepthwise2dSquareInputSquareKernelCustom(const char* name) : OpDef(name)
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
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvDepthwise2dSquareInputSquareKernelCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_WEIGHT = 4096;   // channels * K * K 的上限（float 个数）

// 深度可分离卷积：每个 (n, c) 平面独立，与同通道的 KxK 权重做二维相关。
// 一个任务 = 某平面上连续 R 个输出行。
// 对每个 kw，把 R+K-1 行输入按 kw 平移后一次搬入 UB（行宽 rowStride 对齐），
// 然后对每个 kh 直接用整块 Axpy：acc[0:R*rowStride] += w[kh][kw] * in[kh*rowStride : ...]
// 多出来的对齐列只是无用数据，写回时用 DataCopyPad 裁掉。
class KernelDepthwiseConv2d {
public:
    __aicore__ inline KernelDepthwiseConv2d() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                const ConvDepthwise2dSquareInputSquareKernelCustomTilingData& td)
    {
        channels = td.channels;
        hin = td.hin;
        win = td.win;
        K = td.ksize;
        hout = td.hout;
        wout = td.wout;
        rowStride = td.rowStride;
        R = td.rowsPerBlk;
        blkPerPlane = td.blkPerPlane;

        uint32_t idx = AscendC::GetBlockIdx();
        if (idx < td.tailCore) {
            blkCount = td.baseBlk + 1;
            blkStart = idx * blkCount;
        } else {
            blkCount = td.baseBlk;
            blkStart = idx * td.baseBlk + td.tailCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQueue, BUFFER_NUM, (R + K - 1) * rowStride * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, R * rowStride * sizeof(float));
        pipe.InitBuffer(wBuf, MAX_WEIGHT * sizeof(float));

        // 全部权重一次性搬入 UB，后续按标量读取
        wLocal = wBuf.Get<float>();
        uint32_t wCnt = channels * K * K;
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(wCnt * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wLocal, wGm, cp, pad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t b = 0; b < blkCount; ++b) {
            uint32_t gBlk = blkStart + b;
            uint32_t plane = gBlk / blkPerPlane;
            uint32_t oh0 = (gBlk % blkPerPlane) * R;
            uint32_t rows = (oh0 + R <= hout) ? R : (hout - oh0);
            uint32_t ch = plane % channels;

            AscendC::LocalTensor<float> acc = outQueue.AllocTensor<float>();
            AscendC::Duplicate(acc, 0.0f, rows * rowStride);
            for (uint32_t kw = 0; kw < K; ++kw) {
                CopyIn(plane, oh0, rows, kw);
                Compute(acc, ch, rows, kw);
            }
            outQueue.EnQue(acc);
            CopyOut(plane, oh0, rows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t plane, uint32_t oh0, uint32_t rows, uint32_t kw)
    {
        AscendC::LocalTensor<float> in = inQueue.AllocTensor<float>();
        uint64_t src = ((uint64_t)plane * hin + oh0) * win + kw;
        // 每行搬 wout 个元素，GM 行间跳过 win - wout 个元素
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(rows + K - 1),
                                      static_cast<uint32_t>(wout * sizeof(float)),
                                      static_cast<uint32_t>((win - wout) * sizeof(float)),
                                      static_cast<uint32_t>((rowStride * sizeof(float) - (wout * sizeof(float) + 31) / 32 * 32) / 32),
                                      0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(in, xGm[src], cp, pad);
        inQueue.EnQue(in);
    }

    __aicore__ inline void Compute(AscendC::LocalTensor<float>& acc, uint32_t ch, uint32_t rows, uint32_t kw)
    {
        AscendC::LocalTensor<float> in = inQueue.DeQue<float>();
        uint32_t len = rows * rowStride;
        for (uint32_t kh = 0; kh < K; ++kh) {
            float wv = wLocal.GetValue((ch * K + kh) * K + kw);
            AscendC::Axpy(acc, in[kh * rowStride], wv, len);
        }
        inQueue.FreeTensor(in);
    }

    __aicore__ inline void CopyOut(uint32_t plane, uint32_t oh0, uint32_t rows)
    {
        AscendC::LocalTensor<float> res = outQueue.DeQue<float>();
        uint64_t dst = ((uint64_t)plane * hout + oh0) * wout;
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(rows),
                                      static_cast<uint32_t>(wout * sizeof(float)),
                                      static_cast<uint32_t>((rowStride * sizeof(float) - (wout * sizeof(float) + 31) / 32 * 32) / 32),
                                      0, 0};
        AscendC::DataCopyPad(yGm[dst], res, cp);
        outQueue.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wBuf;
    AscendC::LocalTensor<float> wLocal;
    AscendC::GlobalTensor<float> xGm, wGm, yGm;

    uint32_t channels, hin, win, K, hout, wout, rowStride, R, blkPerPlane;
    uint32_t blkStart, blkCount;
};

extern "C" __global__ __aicore__ void conv_depthwise2d_square_input_square_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelDepthwiseConv2d op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_depthwise2d_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    int64_t k = weight.size(2);
    at::Tensor y = at::empty({x.size(0), x.size(1), x.size(2) - k + 1, x.size(3) - k + 1}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvDepthwise2dSquareInputSquareKernelCustom, xc, wc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_depthwise2d_square_input_square_kernel_custom", &conv_depthwise2d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_depthwise2d_square_input_square_kernel_custom", &conv_depthwise2d_custom_impl_npu,
          "depthwise conv2d, stride 1, no padding");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels: int, kernel_size: int, stride: int = 1, padding: int = 0, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv2d = torch.nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding,
                                      groups=in_channels, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.conv_depthwise2d_square_input_square_kernel_custom(x, self.conv2d.weight)
'''
