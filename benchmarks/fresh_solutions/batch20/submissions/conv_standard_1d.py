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
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, inLen);
  TILING_DATA_FIELD_DEF(uint32_t, outLen);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);      // output channels per work unit
  TILING_DATA_FIELD_DEF(uint32_t, coBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, lenTile);      // output positions per work unit
  TILING_DATA_FIELD_DEF(uint32_t, lenTiles);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard1dCustom, ConvStandard1dCustomTilingData)
}
"""

host_operator_src="""
#include "conv_standard_1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard1dCustomTilingData t;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t batch = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t inLen = xs.GetDim(2);
    uint32_t cout = ws.GetDim(0);
    uint32_t k = ws.GetDim(2);
    if (ws.GetDim(1) != cin || inLen < k) {
        return ge::GRAPH_FAILED;       // groups != 1 is not handled by this kernel
    }
    uint32_t outLen = inLen - k + 1;   // stride 1, no padding, dilation 1

    uint32_t coBlock = cout < 16 ? cout : 16;
    uint32_t lenTile = 1024;
    // UB: accumulators (coBlock x lenTile) + 2 x K shifted input rows + block weights
    while (lenTile > 64 &&
           (coBlock * lenTile + 2 * k * lenTile + coBlock * cin * k + 64) * sizeof(float) > 180 * 1024) {
        lenTile /= 2;
    }
    if (outLen < lenTile) {
        lenTile = (outLen + 7) / 8 * 8;
    }
    uint32_t coBlocks = (cout + coBlock - 1) / coBlock;
    uint32_t lenTiles = (outLen + lenTile - 1) / lenTile;
    uint32_t totalUnits = coBlocks * batch * lenTiles;

    t.set_batch(batch);
    t.set_cin(cin);
    t.set_cout(cout);
    t.set_kernelSize(k);
    t.set_inLen(inLen);
    t.set_outLen(outLen);
    t.set_coBlock(coBlock);
    t.set_coBlocks(coBlocks);
    t.set_lenTile(lenTile);
    t.set_lenTiles(lenTiles);
    t.set_totalUnits(totalUnits);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    context->SetBlockDim(totalUnits < cores ? totalUnits : cores);

    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
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
    y->SetDimNum(3);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
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

// Direct 1-D convolution on the vector unit.
// Work unit = (output-channel block, sample, output-length tile).
// For every input channel we fetch K shifted copies of the input window
// (x[l + k] for k = 0..K-1, each starting on an aligned UB address) and
// accumulate  acc[co][:] += w[co][ci][k] * xk[k][:]  with Axpy.
class KernelConv1d {
public:
    __aicore__ inline KernelConv1d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ConvStandard1dCustomTilingData& td)
    {
        batch = td.batch; cin = td.cin; cout = td.cout; K = td.kernelSize;
        inLen = td.inLen; outLen = td.outLen;
        coBlock = td.coBlock; coBlocks = td.coBlocks;
        lenTile = td.lenTile; lenTiles = td.lenTiles;

        // contiguous range of units per core so weights of a block are reused
        uint32_t total = td.totalUnits;
        uint32_t nCore = GetBlockNum();
        uint32_t per = total / nCore;
        uint32_t rem = total % nCore;
        uint32_t idx = GetBlockIdx();
        unitBegin = idx * per + (idx < rem ? idx : rem);
        unitEnd = unitBegin + per + (idx < rem ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(xQue, 2, K * lenTile * sizeof(float));
        pipe.InitBuffer(accQue, 1, coBlock * lenTile * sizeof(float));
        uint32_t wElems = (coBlock * cin * K + 7) / 8 * 8;
        pipe.InitBuffer(wBuf, wElems * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        int64_t loadedBlock = -1;
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            uint32_t lt = u % lenTiles;
            uint32_t n = (u / lenTiles) % batch;
            uint32_t cb = u / (lenTiles * batch);
            uint32_t co0 = cb * coBlock;
            uint32_t coCnt = (co0 + coBlock <= cout) ? coBlock : (cout - co0);
            if (static_cast<int64_t>(cb) != loadedBlock) {
                LoadWeights(co0, coCnt);
                loadedBlock = cb;
            }
            uint32_t l0 = lt * lenTile;
            uint32_t len = (l0 + lenTile <= outLen) ? lenTile : (outLen - l0);
            ComputeUnit(n, co0, coCnt, l0, len);
        }
    }

private:
    __aicore__ inline void LoadWeights(uint32_t co0, uint32_t coCnt)
    {
        LocalTensor<float> wLocal = wBuf.Get<float>();
        // make sure nobody still reads the previous block's weights
        event_t sToMte2 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE2));
        SetFlag<HardEvent::S_MTE2>(sToMte2);
        WaitFlag<HardEvent::S_MTE2>(sToMte2);
        DataCopyExtParams cp{1, static_cast<uint32_t>(coCnt * cin * K * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(wLocal, wGm[static_cast<uint64_t>(co0) * cin * K], cp, pad);
        event_t mte2ToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
        SetFlag<HardEvent::MTE2_S>(mte2ToS);
        WaitFlag<HardEvent::MTE2_S>(mte2ToS);
    }

    __aicore__ inline void ComputeUnit(uint32_t n, uint32_t co0, uint32_t coCnt, uint32_t l0, uint32_t len)
    {
        LocalTensor<float> acc = accQue.AllocTensor<float>();
        Duplicate(acc, 0.0f, coCnt * lenTile);
        LocalTensor<float> wLocal = wBuf.Get<float>();

        uint64_t xBase = static_cast<uint64_t>(n) * cin * inLen + l0;
        for (uint32_t ci = 0; ci < cin; ++ci) {
            // K shifted windows of the same input row
            LocalTensor<float> xk = xQue.AllocTensor<float>();
            DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            uint64_t rowOff = xBase + static_cast<uint64_t>(ci) * inLen;
            for (uint32_t k = 0; k < K; ++k) {
                DataCopyPad(xk[k * lenTile], xGm[rowOff + k], cp, pad);
            }
            xQue.EnQue(xk);
            xk = xQue.DeQue<float>();

            for (uint32_t co = 0; co < coCnt; ++co) {
                uint32_t wOff = (co * cin + ci) * K;
                for (uint32_t k = 0; k < K; ++k) {
                    float wv = wLocal.GetValue(wOff + k);
                    Axpy(acc[co * lenTile], xk[k * lenTile], wv, len);
                }
            }
            xQue.FreeTensor(xk);
        }
        accQue.EnQue(acc);

        acc = accQue.DeQue<float>();
        uint32_t lenAlign = (len + 7) / 8 * 8;
        DataCopyExtParams op;
        op.blockCount = static_cast<uint16_t>(coCnt);
        op.blockLen = len * sizeof(float);
        op.srcStride = (lenTile - lenAlign) / 8;                 // UB side, in 32B blocks
        op.dstStride = (outLen - len) * sizeof(float);           // GM side, in bytes
        op.rsv = 0;
        DataCopyPad(yGm[(static_cast<uint64_t>(n) * cout + co0) * outLen + l0], acc, op);
        accQue.FreeTensor(acc);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> xQue;
    TQue<QuePosition::VECOUT, 1> accQue;
    TBuf<QuePosition::VECCALC> wBuf;
    GlobalTensor<float> xGm, wGm, yGm;
    uint32_t batch, cin, cout, K, inLen, outLen;
    uint32_t coBlock, coBlocks, lenTile, lenTiles;
    uint32_t unitBegin, unitEnd;
};

extern "C" __global__ __aicore__ void conv_standard_1d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelConv1d op;
    op.Init(x, weight, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard_1d_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 3 && weight.dim() == 3, "expected (N, Cin, L) input and (Cout, Cin, K) weight");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    int64_t outLen = xc.size(2) - wc.size(2) + 1;
    at::Tensor result = at::empty({xc.size(0), wc.size(0), outLen}, xc.options());
    EXEC_NPU_CMD(aclnnConvStandard1dCustom, xc, wc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_1d_custom", &conv_standard_1d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_1d_custom", &conv_standard_1d_custom_impl_npu, "conv1d, stride 1, no padding, no bias");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=False):
        super().__init__()
        self.conv1d = torch.nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                      dilation=dilation, groups=groups, bias=bias)

    def forward(self, x):
        return custom_ops_lib.conv_standard_1d_custom(x, self.conv1d.weight)
'''
