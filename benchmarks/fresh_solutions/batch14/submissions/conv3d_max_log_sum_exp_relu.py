project_json_src='''
[
    {
        "op": "Conv3dMaxLogSumExpReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dMaxLogSumExpReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, depth);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, chanGroup);     // channels loaded per DMA
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);     // batch * outD * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemainder);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dMaxLogSumExpReluCustom, Conv3dMaxLogSumExpReluCustomTilingData)
}
"""

host_operator_src="""
#include "conv3d_max_log_sum_exp_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv3dMaxLogSumExpReluCustomTilingData td;
    auto shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t n = shape.GetDim(0), c = shape.GetDim(1);
    uint32_t d = shape.GetDim(2), h = shape.GetDim(3), w = shape.GetDim(4);
    uint32_t od = d / 2, oh = h / 2, ow = w / 2;

    // two buffers of (group x 2W) floats, double buffered, must stay well below UB size
    uint32_t group = 16;
    while (group > 1 && (group * 2 * w * sizeof(float)) > 16 * 1024) {
        group /= 2;
    }
    if (group > c) group = c;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t rows = n * od * oh;
    if (cores > rows) cores = rows;
    if (cores == 0) cores = 1;

    td.set_batch(n);
    td.set_channels(c);
    td.set_depth(d);
    td.set_height(h);
    td.set_width(w);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_chanGroup(group);
    td.set_totalRows(rows);
    td.set_rowsPerCore(rows / cores);
    td.set_rowsRemainder(rows % cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
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
    out->SetDimNum(5);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, 1);
    out->SetDim(2, in->GetDim(2) / 2);
    out->SetDim(3, in->GetDim(3) / 2);
    out->SetDim(4, in->GetDim(4) / 2);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv3dMaxLogSumExpReluCustom : public OpDef {
public:
    explicit Conv3dMaxLogSumExpReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv3dMaxLogSumExpReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFS = 2;

/*
 * Input is the conv3d output [N, C, D, H, W].
 * One work item = one output row (n, od, oh) of length W/2.
 *   1. MaxPool3d(2,2): for each channel, max over 2 depth slices x 2 rows, then even/odd lanes.
 *   2. logsumexp over channels (numerically stable: m + log(sum(exp(p - m)))).
 *   3. relu.
 */
class Conv3dMaxLseRelu {
public:
    __aicore__ inline Conv3dMaxLseRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Conv3dMaxLogSumExpReluCustomTilingData& td)
    {
        C = td.channels; D = td.depth; H = td.height; W = td.width;
        OD = td.outD; OH = td.outH; OW = td.outW;
        group = td.chanGroup;

        uint32_t idx = GetBlockIdx();
        rowCount = td.rowsPerCore + (idx < td.rowsRemainder ? 1 : 0);
        rowStart = idx * td.rowsPerCore + (idx < td.rowsRemainder ? idx : td.rowsRemainder);

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.batch * C * D * H * W);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.batch * OD * OH * OW);

        pipe.InitBuffer(qFront, BUFS, group * 2 * W * sizeof(float));
        pipe.InitBuffer(qBack, BUFS, group * 2 * W * sizeof(float));
        pipe.InitBuffer(qOut, BUFS, OW * sizeof(float));
        pipe.InitBuffer(rowBuf, group * W * sizeof(float));
        pipe.InitBuffer(evenBuf, group * OW * sizeof(float));
        pipe.InitBuffer(oddBuf, group * OW * sizeof(float));
        pipe.InitBuffer(poolBuf, C * OW * sizeof(float));
        pipe.InitBuffer(maxBuf, OW * sizeof(float));
        pipe.InitBuffer(tmpBuf, OW * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            uint32_t row = rowStart + r;
            uint32_t oh = row % OH;
            uint32_t od = (row / OH) % OD;
            uint32_t n = row / (OH * OD);
            LocalTensor<float> pooled = poolBuf.Get<float>();
            for (uint32_t c0 = 0; c0 < C; c0 += group) {
                uint32_t cg = (C - c0 < group) ? (C - c0) : group;
                LoadSlabs(n, c0, cg, od, oh);
                PoolGroup(pooled, c0, cg);
            }
            Reduce(pooled);
            Store(row);
        }
    }

private:
    __aicore__ inline void LoadSlabs(uint32_t n, uint32_t c0, uint32_t cg, uint32_t od, uint32_t oh)
    {
        uint64_t planeSz = (uint64_t)D * H * W;
        uint64_t base = ((uint64_t)n * C + c0) * planeSz + (uint64_t)(2 * oh) * W;
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(cg);
        cp.blockLen = 2 * W * sizeof(float);
        cp.srcStride = static_cast<uint32_t>((planeSz - 2 * W) * sizeof(float));
        cp.dstStride = 0;
        DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};

        LocalTensor<float> front = qFront.AllocTensor<float>();
        LocalTensor<float> back = qBack.AllocTensor<float>();
        DataCopyPad(front, xGm[base + (uint64_t)(2 * od) * H * W], cp, noPad);
        DataCopyPad(back, xGm[base + (uint64_t)(2 * od + 1) * H * W], cp, noPad);
        qFront.EnQue(front);
        qBack.EnQue(back);
    }

    __aicore__ inline void PoolGroup(LocalTensor<float>& pooled, uint32_t c0, uint32_t cg)
    {
        LocalTensor<float> front = qFront.DeQue<float>();
        LocalTensor<float> back = qBack.DeQue<float>();
        LocalTensor<float> rows = rowBuf.Get<float>();
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> od = oddBuf.Get<float>();

        // depth pair
        Max(front, front, back, cg * 2 * W);
        // row pair -> compact [cg, W]
        for (uint32_t c = 0; c < cg; ++c) {
            Max(rows[c * W], front[c * 2 * W], front[c * 2 * W + W], W);
        }
        qFront.FreeTensor(front);
        qBack.FreeTensor(back);

        // width pair: even / odd lanes
        uint64_t kept = 0;
        uint32_t total = cg * W;
        GatherMaskParams gp;
        gp.src0BlockStride = 1;
        gp.repeatTimes = static_cast<uint16_t>(total / 64);
        gp.src0RepeatStride = 8;
        gp.src1RepeatStride = 0;
        GatherMask(ev, rows, 1, false, 0, gp, kept);
        GatherMask(od, rows, 2, false, 0, gp, kept);
        Max(pooled[c0 * OW], ev, od, cg * OW);
    }

    __aicore__ inline void Reduce(LocalTensor<float>& pooled)
    {
        LocalTensor<float> m = maxBuf.Get<float>();
        LocalTensor<float> t = tmpBuf.Get<float>();
        LocalTensor<float> acc = qOut.AllocTensor<float>();

        DataCopy(m, pooled, OW);
        for (uint32_t c = 1; c < C; ++c) {
            Max(m, m, pooled[c * OW], OW);
        }
        Duplicate(acc, 0.0f, OW);
        for (uint32_t c = 0; c < C; ++c) {
            Sub(t, pooled[c * OW], m, OW);
            Exp(t, t, OW);
            Add(acc, acc, t, OW);
        }
        Ln(acc, acc, OW);
        Add(acc, acc, m, OW);
        Relu(acc, acc, OW);
        qOut.EnQue(acc);
    }

    __aicore__ inline void Store(uint32_t row)
    {
        LocalTensor<float> res = qOut.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(OW * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(uint64_t)row * OW], res, cp);
        qOut.FreeTensor(res);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFS> qFront, qBack;
    TQue<QuePosition::VECOUT, BUFS> qOut;
    TBuf<QuePosition::VECCALC> rowBuf, evenBuf, oddBuf, poolBuf, maxBuf, tmpBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t C, D, H, W, OD, OH, OW, group;
    uint32_t rowStart, rowCount;
};

extern "C" __global__ __aicore__ void conv3d_max_log_sum_exp_relu_custom(GM_ADDR x, GM_ADDR y,
                                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    Conv3dMaxLseRelu op;
    op.Init(x, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv3d stays on the stock NPU conv; pool + logsumexp + relu is the fused custom kernel
at::Tensor conv3d_max_log_sum_exp_relu_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                const at::Tensor& bias, int64_t stride, int64_t padding)
{
    at::Tensor conv = at::conv3d(x, weight, bias, {stride, stride, stride}, {padding, padding, padding});
    conv = conv.contiguous();
    at::Tensor y = at::empty({conv.size(0), 1, conv.size(2) / 2, conv.size(3) / 2, conv.size(4) / 2},
                             conv.options());
    EXEC_NPU_CMD(aclnnConv3dMaxLogSumExpReluCustom, conv, y);
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_max_log_sum_exp_relu_custom", &conv3d_max_log_sum_exp_relu_impl_npu,
          "conv3d -> maxpool3d(2) -> logsumexp(dim=1) -> relu");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)
        self.stride = stride
        self.padding = padding

    def forward(self, x):
        return custom_ops_lib.conv3d_max_log_sum_exp_relu_custom(
            x, self.conv.weight, self.conv.bias, self.stride, self.padding)
'''
