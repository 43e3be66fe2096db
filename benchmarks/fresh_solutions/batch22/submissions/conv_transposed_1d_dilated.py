project_json_src='''
[
    {
        "op": "ConvTransposed1dDilatedCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "padding", "param_type": "optional", "type": "int", "default_value": "0"},
            {"name": "dilation", "param_type": "optional", "type": "int", "default_value": "1"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed1dDilatedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, lenIn);
  TILING_DATA_FIELD_DEF(uint32_t, lenOut);
  TILING_DATA_FIELD_DEF(int32_t, padding);
  TILING_DATA_FIELD_DEF(int32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // output positions per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);  // ceil(lenOut / tileLen)
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore); // (batch * tilesPerRow) split over cores
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed1dDilatedCustom, ConvTransposed1dDilatedCustomTilingData)
}
"""

host_operator_src="""
#include "conv_transposed1d_dilated_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvTransposed1dDilatedCustomTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    const auto *attrs = context->GetAttrs();
    int32_t pad = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(0));
    int32_t dil = static_cast<int32_t>(*attrs->GetAttrPointer<int64_t>(1));

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), lin = xs.GetDim(2);
    uint32_t cout = ws.GetDim(1), k = ws.GetDim(2);
    // stride is 1 for this op: Lout = (Lin - 1) - 2*pad + dil*(k-1) + 1
    uint32_t lout = lin - 1 - 2 * pad + dil * (k - 1) + 1;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = plat.GetCoreNumAiv();

    // UB: whole weight resident + Cout accumulators of tileLen + 2 shifted-input buffers
    uint64_t wBytes = ((uint64_t)cin * cout * k * sizeof(float) + 31) / 32 * 32;
    uint64_t budget = ubSize - 8 * 1024 - wBytes;
    uint32_t tileLen = static_cast<uint32_t>(budget / ((cout + 2) * sizeof(float)));
    tileLen = tileLen / 64 * 64;
    if (tileLen > 4096) tileLen = 4096;
    if (tileLen == 0) tileLen = 64;

    uint32_t tilesPerRow = (lout + tileLen - 1) / tileLen;
    uint32_t totalTasks = n * tilesPerRow;
    uint32_t tasksPerCore = (totalTasks + coreNum - 1) / coreNum;
    uint32_t usedCores = (totalTasks + tasksPerCore - 1) / tasksPerCore;

    td.set_batch(n); td.set_cin(cin); td.set_cout(cout); td.set_kSize(k);
    td.set_lenIn(lin); td.set_lenOut(lout);
    td.set_padding(pad); td.set_dilation(dil);
    td.set_tileLen(tileLen); td.set_tilesPerRow(tilesPerRow); td.set_tasksPerCore(tasksPerCore);

    context->SetBlockDim(usedCores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    const auto *attrs = context->GetAttrs();
    int64_t pad = *attrs->GetAttrPointer<int64_t>(0);
    int64_t dil = *attrs->GetAttrPointer<int64_t>(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(3);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) - 2 * pad + dil * (ws->GetDim(2) - 1));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvTransposed1dDilatedCustom : public OpDef {
public:
    explicit ConvTransposed1dDilatedCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("padding").AttrType(OPTIONAL).Int(0);
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ConvTransposed1dDilatedCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

// Transposed conv, stride 1:
//   y[n, co, t] = sum_{ci, k} x[n, ci, t + pad - k*dil] * w[ci, co, k]
// For every (n, output tile) we keep Cout accumulators of tileLen in UB and,
// for each (ci, k), stream the shifted input window x[n, ci, t0+pad-k*dil : +len]
// once and broadcast it into all Cout rows with Axpy.
class ConvT1dKernel {
public:
    __aicore__ inline ConvT1dKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ConvTransposed1dDilatedCustomTilingData &td)
    {
        N = td.batch; Cin = td.cin; Cout = td.cout; K = td.kSize;
        Lin = td.lenIn; Lout = td.lenOut; pad = td.padding; dil = td.dilation;
        T = td.tileLen; tilesPerRow = td.tilesPerRow;

        uint32_t total = N * tilesPerRow;
        taskBegin = AscendC::GetBlockIdx() * td.tasksPerCore;
        taskEnd = taskBegin + td.tasksPerCore;
        if (taskEnd > total) taskEnd = total;

        xGm.SetGlobalBuffer((__gm__ float *)x);
        wGm.SetGlobalBuffer((__gm__ float *)w);
        yGm.SetGlobalBuffer((__gm__ float *)y);

        wCount = Cin * Cout * K;
        pipe.InitBuffer(wBuf, (wCount + 7) / 8 * 8 * sizeof(float));
        pipe.InitBuffer(accBuf, Cout * T * sizeof(float));
        pipe.InitBuffer(xQ, 2, T * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (taskBegin >= taskEnd) return;
        LoadWeight();
        for (uint32_t task = taskBegin; task < taskEnd; ++task) {
            uint32_t n = task / tilesPerRow;
            uint32_t t0 = (task % tilesPerRow) * T;
            uint32_t len = (t0 + T > Lout) ? (Lout - t0) : T;
            ComputeTile(n, t0, len);
            WriteTile(n, t0, len);
        }
    }

private:
    __aicore__ inline void LoadWeight()
    {
        wLocal = wBuf.Get<float>();
        AscendC::DataCopyExtParams cp{1, wCount * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wLocal, wGm, cp, pp);
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    // bring x[n, ci, s0 : s0+len] into UB, zero where the index falls outside [0, Lin)
    __aicore__ inline void LoadShifted(AscendC::LocalTensor<float> &dst, uint64_t rowBase, int32_t s0, uint32_t len)
    {
        if (s0 >= 0 && s0 + (int32_t)len <= (int32_t)Lin) {
            AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
            AscendC::DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
            AscendC::DataCopyPad(dst, xGm[rowBase + s0], cp, pp);
            return;
        }
        // edge tile (only the first/last few of each row): slow but simple scalar fill
        AscendC::PipeBarrier<PIPE_ALL>();
        for (uint32_t i = 0; i < len; ++i) {
            int32_t s = s0 + (int32_t)i;
            float v = (s >= 0 && s < (int32_t)Lin) ? xGm.GetValue(rowBase + s) : 0.0f;
            dst.SetValue(i, v);
        }
        AscendC::PipeBarrier<PIPE_ALL>();
    }

    __aicore__ inline void ComputeTile(uint32_t n, uint32_t t0, uint32_t len)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, Cout * T);

        for (uint32_t ci = 0; ci < Cin; ++ci) {
            uint64_t rowBase = ((uint64_t)n * Cin + ci) * Lin;
            for (uint32_t k = 0; k < K; ++k) {
                int32_t s0 = (int32_t)t0 + pad - (int32_t)k * dil;
                AscendC::LocalTensor<float> xs = xQ.AllocTensor<float>();
                LoadShifted(xs, rowBase, s0, len);
                xQ.EnQue(xs);
                xs = xQ.DeQue<float>();
                uint32_t wBase = ci * Cout * K + k;
                for (uint32_t co = 0; co < Cout; ++co) {
                    float wv = wLocal.GetValue(wBase + co * K);
                    AscendC::Axpy(acc[co * T], xs, wv, len);
                }
                xQ.FreeTensor(xs);
            }
        }
    }

    __aicore__ inline void WriteTile(uint32_t n, uint32_t t0, uint32_t len)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(ev);
        // Cout rows of len, UB pitch T, GM pitch Lout
        uint32_t srcGapBlocks = (T * sizeof(float) - (len * sizeof(float) + 31) / 32 * 32) / 32;
        AscendC::DataCopyExtParams cp{(uint16_t)Cout, len * (uint32_t)sizeof(float), srcGapBlocks,
                                      (uint32_t)((Lout - len) * sizeof(float)), 0};
        AscendC::DataCopyPad(yGm[(uint64_t)n * Cout * Lout + t0], acc, cp);
        // the next tile re-zeroes acc, so wait for the copy to drain
        event_t ev2 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE3_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(ev2);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(ev2);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> wBuf, accBuf;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> xQ;
    AscendC::GlobalTensor<float> xGm, wGm, yGm;
    AscendC::LocalTensor<float> wLocal;
    uint32_t N, Cin, Cout, K, Lin, Lout, T, tilesPerRow, wCount;
    int32_t pad, dil;
    uint32_t taskBegin, taskEnd;
};

extern "C" __global__ __aicore__ void conv_transposed1d_dilated_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ConvT1dKernel op;
    op.Init(x, weight, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transposed1d_dilated_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                              int64_t stride, int64_t padding, int64_t dilation)
{
    if (stride != 1) {
        // kernel handles the unit-stride case only
        return at::conv_transpose1d(x, weight, {}, stride, padding, 0, 1, dilation);
    }
    int64_t lout = x.size(2) - 2 * padding + dilation * (weight.size(2) - 1);
    at::Tensor y = at::empty({x.size(0), weight.size(1), lout}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed1dDilatedCustom, x, weight, padding, dilation, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed1d_dilated_custom", &conv_transposed1d_dilated_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed1d_dilated_custom", &conv_transposed1d_dilated_impl_npu,
          "dilated ConvTranspose1d (stride 1, no bias)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, bias=False):
        super(ModelNew, self).__init__()
        self.conv1d_transpose = torch.nn.ConvTranspose1d(in_channels, out_channels, kernel_size,
                                                         stride=stride, padding=padding,
                                                         dilation=dilation, bias=bias)
        self.stride = stride
        self.padding = padding
        self.dilation = dilation

    def forward(self, x):
        y = custom_ops_lib.conv_transposed1d_dilated_custom(
            x, self.conv1d_transpose.weight, self.stride, self.padding, self.dilation)
        if self.conv1d_transpose.bias is not None:
            y = y + self.conv1d_transpose.bias.view(1, -1, 1)
        return y
'''
