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
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AveragePooling1dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, inLen);
  TILING_DATA_FIELD_DEF(uint32_t, outLen);
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AveragePooling1dCustom, AveragePooling1dCustomTilingData)
}
"""

host_operator_src="""
#include "average_pooling_1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t TILE_LEN = 8192;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AveragePooling1dCustomTilingData tiling;
    const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t dimNum = shape.GetDimNum();
    uint32_t inLen = shape.GetDim(dimNum - 1);
    uint32_t rows = shape.GetShapeSize() / inLen;

    auto attrs = context->GetAttrs();
    uint32_t k = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    uint32_t s = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(1));
    uint32_t p = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(2));
    uint32_t outLen = (inLen + 2 * p - k) / s + 1;

    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
    if (coreNum > rows) coreNum = rows;
    if (coreNum == 0) coreNum = 1;
    uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;

    tiling.set_rows(rows);
    tiling.set_inLen(inLen);
    tiling.set_outLen(outLen);
    tiling.set_kernelSize(k);
    tiling.set_stride(s);
    tiling.set_padding(p);
    tiling.set_rowsPerCore(rowsPerCore);
    tiling.set_tileLen(TILE_LEN);

    context->SetBlockDim((rows + rowsPerCore - 1) / rowsPerCore);
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
    const gert::Shape* xs = context->GetInputShape(0);
    gert::Shape* ys = context->GetOutputShape(0);
    auto attrs = context->GetAttrs();
    int64_t k = *attrs->GetAttrPointer<int64_t>(0);
    int64_t s = *attrs->GetAttrPointer<int64_t>(1);
    int64_t p = *attrs->GetAttrPointer<int64_t>(2);
    *ys = *xs;
    size_t last = xs->GetDimNum() - 1;
    ys->SetDim(last, (xs->GetDim(last) + 2 * p - k) / s + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
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
        this->Attr("kernel_size").AttrType(REQUIRED).Int();
        this->Attr("stride").AttrType(REQUIRED).Int();
        this->Attr("padding").AttrType(REQUIRED).Int();

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

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t EDGE_CAP = 64;   // max outputs computed on the scalar path per row side

// AvgPool1d with count_include_pad=True: y[j] = (1/k) * sum_t xpad[j*s + t].
// Stride 1 (the benchmark case): interior outputs [p, inLen-k+p] read no padding, so a tile
// of them is the sum of k shifted contiguous windows of x. Each shift is loaded straight
// from GM with DataCopyPad (GM side may be unaligned), keeping UB operands 32B aligned.
// The few outputs touching padding at each end are computed on the scalar unit.
class KernelAvgPool1d {
public:
    __aicore__ inline KernelAvgPool1d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AveragePooling1dCustomTilingData &t)
    {
        inLen = t.inLen; outLen = t.outLen;
        k = t.kernelSize; s = t.stride; p = t.padding;
        tileLen = t.tileLen;
        invK = 1.0f / static_cast<float>(k);
        rowBegin = AscendC::GetBlockIdx() * t.rowsPerCore;
        rowEnd = rowBegin + t.rowsPerCore;
        if (rowEnd > t.rows) rowEnd = t.rows;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(accBuf, tileLen * sizeof(float));
        pipe.InitBuffer(edgeBuf, EDGE_CAP * sizeof(float));

        // interior range [lo, hi) of outputs that never touch padding (stride 1)
        lo = p;
        hi = (inLen + p >= k) ? (inLen + p - k + 1) : 0;
        if (hi > outLen) hi = outLen;
        if (lo > hi) lo = hi;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = rowBegin; r < rowEnd; ++r) {
            uint64_t xRow = (uint64_t)r * inLen;
            uint64_t yRow = (uint64_t)r * outLen;
            if (s != 1) {
                ScalarRange(xRow, yRow, 0, outLen);
                continue;
            }
            ScalarRange(xRow, yRow, 0, lo);
            for (uint32_t j0 = lo; j0 < hi; j0 += tileLen) {
                uint32_t cnt = hi - j0;
                if (cnt > tileLen) cnt = tileLen;
                WindowSum(xRow, j0, cnt);
                CopyOut(yRow + j0, cnt);
            }
            ScalarRange(xRow, yRow, hi, outLen);
        }
    }

private:
    __aicore__ inline void WindowSum(uint64_t xRow, uint32_t j0, uint32_t cnt)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)(cnt * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
        for (uint32_t t = 0; t < k; ++t) {
            AscendC::LocalTensor<float> win = inQueue.AllocTensor<float>();
            AscendC::DataCopyPad(win, xGm[xRow + j0 - p + t], cp, noPad);
            inQueue.EnQue(win);
            win = inQueue.DeQue<float>();
            if (t == 0) {
                AscendC::Adds(acc, win, 0.0f, cnt);
            } else {
                AscendC::Add(acc, acc, win, cnt);
            }
            AscendC::PipeBarrier<PIPE_V>();
            inQueue.FreeTensor(win);
        }
        AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
        AscendC::Muls(out, acc, invK, cnt);
        outQueue.EnQue(out);
    }

    __aicore__ inline void CopyOut(uint64_t yOff, uint32_t cnt)
    {
        AscendC::LocalTensor<float> out = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, (uint32_t)(cnt * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[yOff], out, cp);
        outQueue.FreeTensor(out);
    }

    // outputs [jb, je) computed with scalar reads; padded positions contribute 0
    __aicore__ inline void ScalarRange(uint64_t xRow, uint64_t yRow, uint32_t jb, uint32_t je)
    {
        AscendC::LocalTensor<float> e = edgeBuf.Get<float>();
        while (jb < je) {
            uint32_t n = je - jb;
            if (n > EDGE_CAP) n = EDGE_CAP;
            for (uint32_t i = 0; i < n; ++i) {
                int64_t start = (int64_t)(jb + i) * s - (int64_t)p;
                float sum = 0.0f;
                for (uint32_t t = 0; t < k; ++t) {
                    int64_t idx = start + t;
                    if (idx >= 0 && idx < (int64_t)inLen) {
                        sum += xGm.GetValue(xRow + idx);
                    }
                }
                e.SetValue(i, sum * invK);
            }
            event_t toMte3 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_MTE3));
            AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(toMte3);
            AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(toMte3);
            AscendC::DataCopyExtParams cp{1, (uint32_t)(n * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[yRow + jb], e, cp);
            event_t toS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE3_S));
            AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(toS);
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(toS);
            jb += n;
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, edgeBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t inLen, outLen, k, s, p, tileLen;
    uint32_t rowBegin, rowEnd, lo, hi;
    float invK;
};

extern "C" __global__ __aicore__ void average_pooling_1d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelAvgPool1d op;
    op.Init(x, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor average_pooling_1d_custom_impl_npu(const at::Tensor& x, int64_t kernel_size, int64_t stride, int64_t padding) {
    at::Tensor xc = x.contiguous();
    int64_t outLen = (x.size(-1) + 2 * padding - kernel_size) / stride + 1;
    std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end());
    shape.back() = outLen;
    at::Tensor result = at::empty(shape, x.options());
    EXEC_NPU_CMD(aclnnAveragePooling1dCustom, xc, kernel_size, stride, padding, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("average_pooling_1d_custom", &average_pooling_1d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("average_pooling_1d_custom", &average_pooling_1d_custom_impl_npu, "AvgPool1d (count_include_pad=True)");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int = 1, padding: int = 0):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.average_pooling_1d_custom(x, self.kernel_size, self.stride, self.padding)
'''
