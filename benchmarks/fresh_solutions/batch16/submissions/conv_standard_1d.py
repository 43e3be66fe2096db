project_json_src='''
[
    {
        "op": "ConvStandard1dCustom",
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
BEGIN_TILING_DATA_DEF(ConvStandard1dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, inLength);
  TILING_DATA_FIELD_DEF(uint32_t, outLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);
  TILING_DATA_FIELD_DEF(uint32_t, coGroup);
  TILING_DATA_FIELD_DEF(uint32_t, coGroupNum);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard1dCustom, ConvStandard1dCustomTilingData)
}
"""

host_operator_src="""
#include "conv_standard1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// output positions handled per unit (multiple of 8 floats = one 32B block)
constexpr uint32_t TILE_LEN = 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard1dCustomTilingData tiling;
    const gert::StorageShape* xShape = context->GetInputShape(0);
    const gert::StorageShape* wShape = context->GetInputShape(1);
    uint32_t batch = xShape->GetStorageShape().GetDim(0);
    uint32_t cin = xShape->GetStorageShape().GetDim(1);
    uint32_t lin = xShape->GetStorageShape().GetDim(2);
    uint32_t cout = wShape->GetStorageShape().GetDim(0);
    uint32_t k = wShape->GetStorageShape().GetDim(2);
    if (lin < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t lout = lin - k + 1;   // stride 1, no padding, no dilation

    // pick an output-channel group that divides Cout; 16 keeps the accumulator at 64KB
    uint32_t coGroup = 16;
    while (coGroup > 1 && cout % coGroup != 0) {
        coGroup >>= 1;
    }
    uint32_t coGroupNum = cout / coGroup;
    uint32_t tileNum = (lout + TILE_LEN - 1) / TILE_LEN;
    uint32_t totalUnits = batch * tileNum * coGroupNum;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t blockDim = totalUnits < coreNum ? totalUnits : coreNum;
    context->SetBlockDim(blockDim);

    tiling.set_batch(batch);
    tiling.set_inChannels(cin);
    tiling.set_outChannels(cout);
    tiling.set_kernelSize(k);
    tiling.set_inLength(lin);
    tiling.set_outLength(lout);
    tiling.set_tileLen(TILE_LEN);
    tiling.set_tileNum(tileNum);
    tiling.set_coGroup(coGroup);
    tiling.set_coGroupNum(coGroupNum);
    tiling.set_totalUnits(totalUnits);
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
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* wShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(3);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, wShape->GetDim(0));
    yShape->SetDim(2, xShape->GetDim(2) - wShape->GetDim(2) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard1dCustom : public OpDef {
public:
    explicit ConvStandard1dCustom(const char* name) : OpDef(name)
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

OP_ADD(ConvStandard1dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Direct 1D convolution on the vector unit.
// A work unit is (batch, output tile, group of output channels). For every input
// channel we DMA the K shifted windows x[l0+k : l0+k+tileLen] into UB (so all vector
// operands stay 32B aligned) and accumulate acc[co] += w[co][ci][k] * window_k with Axpy.
class KernelConvStandard1d {
public:
    __aicore__ inline KernelConvStandard1d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ConvStandard1dCustomTilingData& t)
    {
        batch = t.batch;
        cin = t.inChannels;
        cout = t.outChannels;
        ks = t.kernelSize;
        lin = t.inLength;
        lout = t.outLength;
        tileLen = t.tileLen;
        tileNum = t.tileNum;
        coGroup = t.coGroup;
        coGroupNum = t.coGroupNum;
        totalUnits = t.totalUnits;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)batch * cin * lin);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cout * cin * ks);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)batch * cout * lout);

        pipe.InitBuffer(winQue, BUFFER_NUM, ks * tileLen * sizeof(float));
        pipe.InitBuffer(accQue, 1, coGroup * tileLen * sizeof(float));
        uint32_t wLen = coGroup * cin * ks;
        wLen = (wLen + 7) / 8 * 8;
        pipe.InitBuffer(wBuf, wLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t blockIdx = GetBlockIdx();
        uint32_t blockNum = GetBlockNum();
        int32_t loadedGroup = -1;
        // unit order: group outermost so a core rarely has to reload its weights
        for (uint32_t unit = blockIdx; unit < totalUnits; unit += blockNum) {
            uint32_t perGroup = batch * tileNum;
            uint32_t g = unit / perGroup;
            uint32_t rem = unit % perGroup;
            uint32_t b = rem / tileNum;
            uint32_t tile = rem % tileNum;
            if ((int32_t)g != loadedGroup) {
                LoadWeights(g);
                loadedGroup = (int32_t)g;
            }
            uint32_t l0 = tile * tileLen;
            uint32_t curLen = (lout - l0) < tileLen ? (lout - l0) : tileLen;
            ComputeUnit(b, g * coGroup, l0, curLen);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t g)
    {
        LocalTensor<float> wLocal = wBuf.Get<float>();
        uint32_t cnt = coGroup * cin * ks;
        DataCopyExtParams cp{1, cnt * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wLocal, wGm[(uint64_t)g * coGroup * cin * ks], cp, pad);
        // weights are consumed as scalars -> wait for MTE2 before scalar reads
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(evt);
        WaitFlag<HardEvent::MTE2_S>(evt);
    }

    __aicore__ inline void CopyInWindows(uint32_t b, uint32_t ci, uint32_t l0, uint32_t curLen)
    {
        LocalTensor<float> win = winQue.AllocTensor<float>();
        uint64_t rowBase = ((uint64_t)b * cin + ci) * lin + l0;
        DataCopyExtParams cp{1, curLen * (uint32_t)sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t k = 0; k < ks; ++k) {
            DataCopyPad(win[k * tileLen], xGm[rowBase + k], cp, pad);
        }
        winQue.EnQue(win);
    }

    __aicore__ inline void ComputeUnit(uint32_t b, uint32_t co0, uint32_t l0, uint32_t curLen)
    {
        LocalTensor<float> wLocal = wBuf.Get<float>();
        LocalTensor<float> acc = accQue.AllocTensor<float>();
        Duplicate(acc, 0.0f, coGroup * tileLen);
        uint32_t alignedLen = (curLen + 7) / 8 * 8;

        for (uint32_t ci = 0; ci < cin; ++ci) {
            CopyInWindows(b, ci, l0, curLen);
            LocalTensor<float> win = winQue.DeQue<float>();
            for (uint32_t c = 0; c < coGroup; ++c) {
                uint32_t wBase = (c * cin + ci) * ks;
                for (uint32_t k = 0; k < ks; ++k) {
                    float wv = wLocal.GetValue(wBase + k);
                    Axpy(acc[c * tileLen], win[k * tileLen], wv, alignedLen);
                }
            }
            winQue.FreeTensor(win);
        }
        accQue.EnQue(acc);
        CopyOut(b, co0, l0, curLen);
    }

    __aicore__ inline void CopyOut(uint32_t b, uint32_t co0, uint32_t l0, uint32_t curLen)
    {
        LocalTensor<float> acc = accQue.DeQue<float>();
        uint32_t usedBlocks = (curLen + 7) / 8;
        DataCopyExtParams cp;
        cp.blockCount = (uint16_t)coGroup;
        cp.blockLen = curLen * sizeof(float);
        cp.srcStride = tileLen / 8 - usedBlocks;                 // UB side, in 32B blocks
        cp.dstStride = (lout - curLen) * sizeof(float);          // GM side, in bytes
        cp.rsv = 0;
        DataCopyPad(yGm[((uint64_t)b * cout + co0) * lout + l0], acc, cp);
        accQue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> winQue;
    TQue<QuePosition::VECOUT, 1> accQue;
    TBuf<QuePosition::VECCALC> wBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t batch, cin, cout, ks, lin, lout;
    uint32_t tileLen, tileNum, coGroup, coGroupNum, totalUnits;
};

extern "C" __global__ __aicore__ void conv_standard1d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConvStandard1d op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard1d_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 3, "x must be (N, C_in, L)");
    TORCH_CHECK(weight.dim() == 3, "weight must be (C_out, C_in, K)");
    TORCH_CHECK(x.size(1) == weight.size(1), "channel mismatch");
    int64_t lout = x.size(2) - weight.size(2) + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(0), lout}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvStandard1dCustom, xc, wc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard1d_custom", &conv_standard1d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard1d_custom", &conv_standard1d_custom_impl_npu, "conv1d (stride 1, no padding)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, dilation: int = 1, groups: int = 1, bias: bool = False):
        super().__init__()
        self.conv1d = torch.nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride,
                                      padding=padding, dilation=dilation, groups=groups, bias=bias)

    def forward(self, x):
        return custom_ops_lib.conv_standard1d_custom(x, self.conv1d.weight)
'''
