project_json_src='''
[
    {
        "op": "ConvTranspose2dMaxPoolHardtanhMeanTanhCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
                "name": "pool_kernel",
                "param_type": "optional",
                "type": "int",
                "default_value": "2"
            },
            {
                "name": "pool_stride",
                "param_type": "optional",
                "type": "int",
                "default_value": "2"
            },
            {
                "name": "min_val",
                "param_type": "optional",
                "type": "float",
                "default_value": "-1.0"
            },
            {
                "name": "max_val",
                "param_type": "optional",
                "type": "float",
                "default_value": "1.0"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose2dMaxPoolHardtanhMeanTanhCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, widthAlign);
  TILING_DATA_FIELD_DEF(uint32_t, poolK);
  TILING_DATA_FIELD_DEF(uint32_t, poolS);
  TILING_DATA_FIELD_DEF(uint32_t, pooledH);
  TILING_DATA_FIELD_DEF(uint32_t, pooledW);
  TILING_DATA_FIELD_DEF(uint32_t, pooledWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailPlanes);
  TILING_DATA_FIELD_DEF(float, minVal);
  TILING_DATA_FIELD_DEF(float, maxVal);
  TILING_DATA_FIELD_DEF(float, invCount);         // 1 / (pooledH * pooledW)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose2dMaxPoolHardtanhMeanTanhCustom,
                           ConvTranspose2dMaxPoolHardtanhMeanTanhCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transpose2d_max_pool_hardtanh_mean_tanh_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTranspose2dMaxPoolHardtanhMeanTanhCustomTilingData tiling;
    const auto& shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    uint32_t poolK = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t poolS = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    float minVal = *attrs->GetAttrPointer<float>(2);
    float maxVal = *attrs->GetAttrPointer<float>(3);

    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t h = shape.GetDim(2);
    uint32_t w = shape.GetDim(3);
    if (poolK == 0 || poolS == 0 || h < poolK || w < poolK) {
        return ge::GRAPH_FAILED;
    }
    uint32_t ph = (h - poolK) / poolS + 1;
    uint32_t pw = (w - poolK) / poolS + 1;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum == 0) {
        coreNum = 1;
    }
    uint32_t planes = n * c;
    uint32_t usedCores = planes < coreNum ? planes : coreNum;
    if (usedCores == 0) {
        usedCores = 1;
    }

    tiling.set_planes(planes);
    tiling.set_height(h);
    tiling.set_width(w);
    tiling.set_widthAlign((w + 7) / 8 * 8);
    tiling.set_poolK(poolK);
    tiling.set_poolS(poolS);
    tiling.set_pooledH(ph);
    tiling.set_pooledW(pw);
    tiling.set_pooledWAlign((pw + 7) / 8 * 8);
    tiling.set_planesPerCore(planes / usedCores);
    tiling.set_tailPlanes(planes % usedCores);
    tiling.set_minVal(minVal);
    tiling.set_maxVal(maxVal);
    tiling.set_invCount(1.0f / static_cast<float>(ph * pw));

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
    const gert::Shape* xShape = context->GetInputShape(0);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(4);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, xShape->GetDim(1));
    yShape->SetDim(2, 1);
    yShape->SetDim(3, 1);
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTranspose2dMaxPoolHardtanhMeanTanhCustom : public OpDef {
public:
    explicit ConvTranspose2dMaxPoolHardtanhMeanTanhCustom(const char* name) : OpDef(name)
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
        this->Attr("pool_kernel").AttrType(OPTIONAL).Int(2);
        this->Attr("pool_stride").AttrType(OPTIONAL).Int(2);
        this->Attr("min_val").AttrType(OPTIONAL).Float(-1.0);
        this->Attr("max_val").AttrType(OPTIONAL).Float(1.0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ConvTranspose2dMaxPoolHardtanhMeanTanhCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t RES_BLOCK = 64;   // plane results flushed to GM per batch

// Per (n, c) plane of the transposed-conv output:
//   max_pool2d(k, s) -> hardtanh(min, max) -> mean over (H', W') -> tanh.
// One pooled row needs k consecutive input rows (contiguous in GM). The k rows
// are max-reduced vertically, then the horizontal window is taken with Gather
// (tab[kw][pw] -> element pw*s + kw), clamped and accumulated into a row sum.
class KernelPoolHardtanhMeanTanh {
public:
    __aicore__ inline KernelPoolHardtanhMeanTanh() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ConvTranspose2dMaxPoolHardtanhMeanTanhCustomTilingData& t)
    {
        height = t.height;
        width = t.width;
        widthAlign = t.widthAlign;
        poolK = t.poolK;
        poolS = t.poolS;
        pooledH = t.pooledH;
        pooledW = t.pooledW;
        pooledWAlign = t.pooledWAlign;
        minVal = t.minVal;
        maxVal = t.maxVal;
        invCount = t.invCount;

        uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < t.tailPlanes) {
            planeCount = t.planesPerCore + 1;
            planeStart = blockIdx * (t.planesPerCore + 1);
        } else {
            planeCount = t.planesPerCore;
            planeStart = t.tailPlanes * (t.planesPerCore + 1) + (blockIdx - t.tailPlanes) * t.planesPerCore;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQueue, BUFFER_NUM, poolK * widthAlign * sizeof(float));
        pipe.InitBuffer(outQueue, 1, RES_BLOCK * sizeof(float));
        pipe.InitBuffer(vmaxBuf, widthAlign * sizeof(float));
        pipe.InitBuffer(poolBuf, pooledWAlign * sizeof(float));
        pipe.InitBuffer(gatherBuf, pooledWAlign * sizeof(float));
        pipe.InitBuffer(accBuf, pooledWAlign * sizeof(float));
        pipe.InitBuffer(workBuf, pooledWAlign * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(meanBuf, RES_BLOCK * sizeof(float));
        pipe.InitBuffer(tabBuf, poolK * pooledWAlign * sizeof(uint32_t));
        BuildTable();
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> means = meanBuf.Get<float>();
        for (uint32_t p0 = 0; p0 < planeCount; p0 += RES_BLOCK) {
            uint32_t cnt = planeCount - p0 < RES_BLOCK ? planeCount - p0 : RES_BLOCK;
            for (uint32_t i = 0; i < cnt; ++i) {
                float mean = PlaneMean(planeStart + p0 + i);
                means.SetValue(i, mean);
            }
            event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(evt);
            WaitFlag<HardEvent::S_V>(evt);

            LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            Tanh(yLocal, means, cnt);
            outQueue.EnQue<float>(yLocal);
            yLocal = outQueue.DeQue<float>();
            DataCopyExtParams params{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[planeStart + p0], yLocal, params);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    __aicore__ inline void BuildTable()
    {
        LocalTensor<uint32_t> tab = tabBuf.Get<uint32_t>();
        for (uint32_t kw = 0; kw < poolK; ++kw) {
            for (uint32_t pw = 0; pw < pooledWAlign; ++pw) {
                uint32_t col = pw < pooledW ? pw * poolS + kw : 0;
                tab.SetValue(kw * pooledWAlign + pw, col * static_cast<uint32_t>(sizeof(float)));
            }
        }
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evt);
        WaitFlag<HardEvent::S_V>(evt);
    }

    __aicore__ inline void CopyIn(uint64_t rowOffset)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params;
        params.blockCount = static_cast<uint16_t>(poolK);
        params.blockLen = width * sizeof(float);
        params.srcStride = 0;
        params.dstStride = 0;
        params.rsv = 0;
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[rowOffset], params, padParams);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void PoolRow(LocalTensor<float>& acc)
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> vmax = vmaxBuf.Get<float>();
        LocalTensor<float> pooled = poolBuf.Get<float>();
        LocalTensor<float> g = gatherBuf.Get<float>();
        LocalTensor<uint32_t> tab = tabBuf.Get<uint32_t>();

        // vertical max over the k rows of the window
        if (poolK == 1) {
            Adds(vmax, xLocal, 0.0f, width);
        } else {
            Max(vmax, xLocal, xLocal[widthAlign], width);
            for (uint32_t i = 2; i < poolK; ++i) {
                PipeBarrier<PIPE_V>();
                Max(vmax, vmax, xLocal[i * widthAlign], width);
            }
        }
        PipeBarrier<PIPE_V>();
        inQueue.FreeTensor(xLocal);

        // horizontal max over kw
        Gather(pooled, vmax, tab, 0, pooledW);
        for (uint32_t kw = 1; kw < poolK; ++kw) {
            PipeBarrier<PIPE_V>();
            Gather(g, vmax, tab[kw * pooledWAlign], 0, pooledW);
            PipeBarrier<PIPE_V>();
            Max(pooled, pooled, g, pooledW);
        }
        PipeBarrier<PIPE_V>();

        // hardtanh
        Maxs(pooled, pooled, minVal, pooledW);
        PipeBarrier<PIPE_V>();
        Mins(pooled, pooled, maxVal, pooledW);
        PipeBarrier<PIPE_V>();
        Add(acc, acc, pooled, pooledW);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline float PlaneMean(uint32_t plane)
    {
        LocalTensor<float> acc = accBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        uint64_t base = static_cast<uint64_t>(plane) * height * width;

        Duplicate(acc, 0.0f, pooledWAlign);
        PipeBarrier<PIPE_V>();
        for (uint32_t ph = 0; ph < pooledH; ++ph) {
            CopyIn(base + static_cast<uint64_t>(ph) * poolS * width);
            PoolRow(acc);
        }
        ReduceSum(red, acc, work, pooledW);
        PipeBarrier<PIPE_V>();
        Muls(red, red, invCount, 1);
        event_t evt = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evt);
        WaitFlag<HardEvent::V_S>(evt);
        return red.GetValue(0);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<QuePosition::VECCALC> vmaxBuf, poolBuf, gatherBuf, accBuf, workBuf, redBuf, meanBuf;
    TBuf<QuePosition::VECCALC> tabBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t height, width, widthAlign;
    uint32_t poolK, poolS;
    uint32_t pooledH, pooledW, pooledWAlign;
    uint32_t planeStart, planeCount;
    float minVal, maxVal, invCount;
};

extern "C" __global__ __aicore__ void conv_transpose2d_max_pool_hardtanh_mean_tanh_custom(
    GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelPoolHardtanhMeanTanh op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose2d runs on the NPU conv path; pooling, hardtanh, the spatial
// mean and tanh are fused into one pass over the conv output.
at::Tensor conv_transpose2d_max_pool_hardtanh_mean_tanh_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
    int64_t stride, int64_t padding, int64_t pool_kernel, int64_t pool_stride,
    double min_val, double max_val)
{
    at::Tensor conv = at::conv_transpose2d(x, weight, bias, {stride, stride}, {padding, padding},
                                           {0, 0}, 1, {1, 1}).contiguous();
    at::Tensor result = at::empty({conv.size(0), conv.size(1), 1, 1}, conv.options());
    EXEC_NPU_CMD(aclnnConvTranspose2dMaxPoolHardtanhMeanTanhCustom, conv, pool_kernel, pool_stride,
                 min_val, max_val, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose2d_max_pool_hardtanh_mean_tanh_custom",
           &conv_transpose2d_max_pool_hardtanh_mean_tanh_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose2d_max_pool_hardtanh_mean_tanh_custom",
          &conv_transpose2d_max_pool_hardtanh_mean_tanh_custom_impl_npu,
          "conv_transpose2d -> maxpool -> hardtanh -> mean -> tanh");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding,
                 maxpool_kernel_size, maxpool_stride, hardtanh_min, hardtanh_max):
        super(ModelNew, self).__init__()
        self.conv_transpose = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size,
                                                       stride=stride, padding=padding)
        self.stride = stride
        self.padding = padding
        self.pool_kernel = maxpool_kernel_size
        self.pool_stride = maxpool_stride
        self.min_val = float(hardtanh_min)
        self.max_val = float(hardtanh_max)

    def forward(self, x):
        return custom_ops_lib.conv_transpose2d_max_pool_hardtanh_mean_tanh_custom(
            x, self.conv_transpose.weight, self.conv_transpose.bias,
            self.stride, self.padding, self.pool_kernel, self.pool_stride,
            self.min_val, self.max_val)
'''
