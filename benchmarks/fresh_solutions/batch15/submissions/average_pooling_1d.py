project_json_src='''
[
    {
        "op": "AveragePooling1dCustom",
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
                "name": "kernel_size",
                "param_type": "required",
                "type": "int"
            },
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
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AveragePooling1dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, lenIn);
  TILING_DATA_FIELD_DEF(uint32_t, lenOut);
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, head);        // zero lead-in in UB, >= padding, 8-aligned
  TILING_DATA_FIELD_DEF(uint32_t, tileOut);     // outputs per tile
  TILING_DATA_FIELD_DEF(uint32_t, bufLen);      // floats in one input tile buffer
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(float, invK);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AveragePooling1dCustom, AveragePooling1dCustomTilingData)
}
"""

host_operator_src="""
#include <algorithm>
#include "average_pooling1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    if (xs.GetDimNum() != 3) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    uint32_t k = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t s = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t p = static_cast<uint32_t>(*attrs->GetInt(2));
    if (k == 0 || s == 0 || p > k / 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = xs.GetDim(0) * xs.GetDim(1);
    uint32_t lenIn = xs.GetDim(2);
    uint32_t lenOut = (lenIn + 2 * p - k) / s + 1;

    uint32_t head = std::max<uint32_t>(8, AlignUp(p, 8));
    // UB: 2 input tiles + 2 output tiles + 1 gather scratch + offset table
    // bytes per output ~ 4 * (2 * stride + 2 + 1 + 1)
    const uint32_t ubBytes = 180 * 1024;
    uint32_t tileOut = ubBytes / (sizeof(float) * (2 * s + 4)) - 64;
    tileOut = std::min<uint32_t>(tileOut, 8192);
    tileOut = tileOut / 8 * 8;
    tileOut = std::min(tileOut, AlignUp(lenOut, 8));
    uint32_t bufLen = AlignUp(head + (tileOut - 1) * s + k, 8) + 8;
    uint32_t tilesPerRow = (lenOut + tileOut - 1) / tileOut;
    uint32_t totalTiles = rows * tilesPerRow;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t tilesPerCore = (totalTiles + coreNum - 1) / coreNum;
    context->SetBlockDim((totalTiles + tilesPerCore - 1) / tilesPerCore);

    AveragePooling1dCustomTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_lenIn(lenIn);
    tiling.set_lenOut(lenOut);
    tiling.set_kernelSize(k);
    tiling.set_stride(s);
    tiling.set_padding(p);
    tiling.set_head(head);
    tiling.set_tileOut(tileOut);
    tiling.set_bufLen(bufLen);
    tiling.set_tilesPerRow(tilesPerRow);
    tiling.set_totalTiles(totalTiles);
    tiling.set_tilesPerCore(tilesPerCore);
    tiling.set_invK(1.0f / static_cast<float>(k));   // count_include_pad = True
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
    const gert::Shape* xs = context->GetInputShape(0);
    auto attrs = context->GetAttrs();
    int64_t k = *attrs->GetInt(0);
    int64_t s = *attrs->GetInt(1);
    int64_t p = *attrs->GetInt(2);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(2, (xs->GetDim(2) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class AveragePooling1dCustom : public OpDef {
public:
    explicit AveragePooling1dCustom(const char* name) : OpDef(name)
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
        this->Attr("kernel_size").Int();
        this->Attr("stride").AttrType(OPTIONAL).Int(1);
        this->Attr("padding").AttrType(OPTIONAL).Int(0);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(AveragePooling1dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// AvgPool1d, count_include_pad = True.
// A tile of tileOut outputs of one (n, c) row needs the input window
// [l0*s - pad, l0*s - pad + (tileOut-1)*s + k). That slice is copied to UB
// behind a zeroed lead-in of `head` floats, so padded positions read as 0.
// The k taps are then produced with Gather: the offset table holds i*s*4 bytes
// and the tap shift goes into the base address, which sidesteps unaligned
// vector slicing of the UB buffer entirely.
class KernelAvgPool1d {
public:
    __aicore__ inline KernelAvgPool1d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AveragePooling1dCustomTilingData& td)
    {
        lenIn = td.lenIn;
        lenOut = td.lenOut;
        ks = td.kernelSize;
        st = td.stride;
        pad = td.padding;
        head = td.head;
        tileOut = td.tileOut;
        bufLen = td.bufLen;
        tilesPerRow = td.tilesPerRow;
        invK = td.invK;

        tileBegin = GetBlockIdx() * td.tilesPerCore;
        tileEnd = tileBegin + td.tilesPerCore;
        if (tileEnd > td.totalTiles) {
            tileEnd = td.totalTiles;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.rows * lenIn);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.rows * lenOut);

        pipe.InitBuffer(inQue, BUFFER_NUM, bufLen * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, tileOut * sizeof(float));
        pipe.InitBuffer(tapBuf, tileOut * sizeof(float));
        pipe.InitBuffer(offBuf, tileOut * sizeof(uint32_t));

        // offset table: output i starts at i * stride floats
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t i = 0; i < tileOut; ++i) {
            off.SetValue(i, i * st * static_cast<uint32_t>(sizeof(float)));
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = tileBegin; t < tileEnd; ++t) {
            uint32_t row = t / tilesPerRow;
            uint32_t l0 = (t % tilesPerRow) * tileOut;
            uint32_t cnt = (l0 + tileOut <= lenOut) ? tileOut : (lenOut - l0);

            int64_t winStart = static_cast<int64_t>(l0) * st - pad;
            int64_t winEnd = winStart + static_cast<int64_t>(cnt - 1) * st + ks;
            int64_t dataStart = winStart < 0 ? 0 : winStart;
            int64_t dataEnd = winEnd > lenIn ? static_cast<int64_t>(lenIn) : winEnd;
            uint32_t dataLen = static_cast<uint32_t>(dataEnd - dataStart);
            // byte address (inside the UB tile) of output 0's first tap
            uint32_t baseBytes = static_cast<uint32_t>(head + (winStart - dataStart)) * sizeof(float);

            CopyIn(row, static_cast<uint32_t>(dataStart), dataLen);
            Compute(dataLen, baseBytes, cnt);
            CopyOut(row, l0, cnt);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t dataStart, uint32_t dataLen)
    {
        LocalTensor<float> buf = inQue.AllocTensor<float>();
        uint32_t alignedLen = (dataLen + 7) / 8 * 8;
        DataCopyExtParams cp{1, static_cast<uint32_t>(dataLen * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{true, 0, static_cast<uint8_t>(alignedLen - dataLen), 0.0f};
        DataCopyPad(buf[head], xGm[(uint64_t)row * lenIn + dataStart], cp, padParams);
        inQue.EnQue(buf);
    }

    __aicore__ inline void Compute(uint32_t dataLen, uint32_t baseBytes, uint32_t cnt)
    {
        LocalTensor<float> buf = inQue.DeQue<float>();
        LocalTensor<float> outLocal = outQue.AllocTensor<float>();
        LocalTensor<float> tap = tapBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();

        // zero the padding zones: lead-in and everything after the copied data
        Duplicate(buf, 0.0f, head);
        uint32_t tailPos = head + (dataLen + 7) / 8 * 8;
        if (tailPos < bufLen) {
            Duplicate(buf[tailPos], 0.0f, bufLen - tailPos);
        }

        Gather(outLocal, buf, off, baseBytes, cnt);
        for (uint32_t k = 1; k < ks; ++k) {
            Gather(tap, buf, off, baseBytes + k * static_cast<uint32_t>(sizeof(float)), cnt);
            Add(outLocal, outLocal, tap, cnt);
        }
        Muls(outLocal, outLocal, invK, cnt);

        outQue.EnQue(outLocal);
        inQue.FreeTensor(buf);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t l0, uint32_t cnt)
    {
        LocalTensor<float> outLocal = outQue.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)row * lenOut + l0], outLocal, cp);
        outQue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue;
    TBuf<TPosition::VECCALC> tapBuf, offBuf;
    GlobalTensor<float> xGm, yGm;

    uint32_t lenIn, lenOut, ks, st, pad, head;
    uint32_t tileOut, bufLen, tilesPerRow;
    uint32_t tileBegin, tileEnd;
    float invK;
};

extern "C" __global__ __aicore__ void average_pooling1d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAvgPool1d op;
    op.Init(x, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor average_pooling1d_custom_impl_npu(const at::Tensor& x, int64_t kernel_size, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 3, "AvgPool1d expects (N, C, L)");
    TORCH_CHECK(padding <= kernel_size / 2, "pad should be at most half of kernel size");
    at::Tensor xc = x.contiguous();
    int64_t lenOut = (xc.size(2) + 2 * padding - kernel_size) / stride + 1;
    at::Tensor result = at::empty({xc.size(0), xc.size(1), lenOut}, xc.options());
    EXEC_NPU_CMD(aclnnAveragePooling1dCustom, xc, kernel_size, stride, padding, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("average_pooling1d_custom", &average_pooling1d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("average_pooling1d_custom", &average_pooling1d_custom_impl_npu, "AvgPool1d (count_include_pad=True)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, kernel_size: int, stride: int = 1, padding: int = 0):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x):
        return custom_ops_lib.average_pooling1d_custom(x, self.kernel_size, self.stride, self.padding)
'''
