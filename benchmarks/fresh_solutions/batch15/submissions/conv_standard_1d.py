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
        ],
        "attr": [
            {
                "name": "dilation",
                "param_type": "optional",
                "type": "int",
                "default_value": "1"
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
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, lenIn);
  TILING_DATA_FIELD_DEF(uint32_t, lenOut);
  TILING_DATA_FIELD_DEF(uint32_t, coTile);     // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, lTile);      // output positions per tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, lTiles);
  TILING_DATA_FIELD_DEF(uint32_t, coGroups);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits); // coGroups * batch * lTiles
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard1dCustom, ConvStandard1dCustomTilingData)
}
"""

host_operator_src="""
#include <algorithm>
#include "conv_standard1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();
    if (xs.GetDimNum() != 3 || ws.GetDimNum() != 3 || ws.GetDim(1) != xs.GetDim(1)) {
        return ge::GRAPH_FAILED;   // only groups == 1 is handled
    }
    const int64_t* dilAttr = context->GetAttrs()->GetInt(0);
    uint32_t dilation = dilAttr ? static_cast<uint32_t>(*dilAttr) : 1U;

    uint32_t batch = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t lenIn = xs.GetDim(2);
    uint32_t cout = ws.GetDim(0);
    uint32_t kSize = ws.GetDim(2);
    uint32_t span = dilation * (kSize - 1) + 1;
    if (lenIn < span) {
        return ge::GRAPH_FAILED;
    }
    uint32_t lenOut = lenIn - span + 1;

    // pick the output-channel group first, then spend the remaining UB on length
    uint32_t coTile = 8;
    while (cout % coTile != 0) {
        coTile >>= 1;
    }
    const uint32_t ubBytes = 184 * 1024;
    uint32_t wBytes = (coTile * cin * kSize * sizeof(float) + 31) / 32 * 32;
    // acc: coTile x lTile (double buffered), shifted x: kSize x lTile (double buffered)
    uint32_t perPos = (2 * coTile + 2 * kSize) * sizeof(float);
    uint32_t lTile = (ubBytes - wBytes) / perPos;
    lTile = std::min<uint32_t>(lTile, 4096);
    lTile = lTile / 64 * 64;
    uint32_t lenOutAlign = (lenOut + 7) / 8 * 8;
    lTile = std::min(lTile, lenOutAlign);
    if (lTile == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t lTiles = (lenOut + lTile - 1) / lTile;
    uint32_t coGroups = cout / coTile;
    uint32_t totalUnits = coGroups * batch * lTiles;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t unitsPerCore = (totalUnits + coreNum - 1) / coreNum;
    uint32_t blockDim = (totalUnits + unitsPerCore - 1) / unitsPerCore;
    context->SetBlockDim(blockDim);

    ConvStandard1dCustomTilingData tiling;
    tiling.set_batch(batch);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_kSize(kSize);
    tiling.set_dilation(dilation);
    tiling.set_lenIn(lenIn);
    tiling.set_lenOut(lenOut);
    tiling.set_coTile(coTile);
    tiling.set_lTile(lTile);
    tiling.set_lTiles(lTiles);
    tiling.set_coGroups(coGroups);
    tiling.set_totalUnits(totalUnits);
    tiling.set_unitsPerCore(unitsPerCore);
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
    const gert::Shape* ws = context->GetInputShape(1);
    const int64_t* dilAttr = context->GetAttrs()->GetInt(0);
    int64_t dilation = dilAttr ? *dilAttr : 1;
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(3);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - dilation * (ws->GetDim(2) - 1));
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
        this->Attr("dilation").AttrType(OPTIONAL).Int(1);

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

constexpr int32_t BUFFER_NUM = 2;

// Direct 1D convolution (stride 1, no padding, groups 1) on the vector unit.
//
// Work unit = (output-channel group, batch, length tile). For every input
// channel the K shifted windows x[ci, l0 + k*dil : l0 + k*dil + lTile] are
// DMA'd straight from GM (GM side needs no alignment, so no unaligned UB
// slicing is required) and folded into coTile accumulators with Axpy:
//     acc[co] += w[co, ci, k] * xShift[k]
// Weights of the current group sit in UB and are read as scalars.
class ConvStandard1dKernel {
public:
    __aicore__ inline ConvStandard1dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ConvStandard1dCustomTilingData& t)
    {
        batch = t.batch;
        cin = t.cin;
        cout = t.cout;
        kSize = t.kSize;
        dilation = t.dilation;
        lenIn = t.lenIn;
        lenOut = t.lenOut;
        coTile = t.coTile;
        lTile = t.lTile;
        lTiles = t.lTiles;

        unitBegin = AscendC::GetBlockIdx() * t.unitsPerCore;
        unitEnd = unitBegin + t.unitsPerCore;
        if (unitEnd > t.totalUnits) {
            unitEnd = t.totalUnits;
        }

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)batch * cin * lenIn);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cout * cin * kSize);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)batch * cout * lenOut);

        wCount = coTile * cin * kSize;
        uint32_t wBytes = (wCount * sizeof(float) + 31) / 32 * 32;
        pipe.InitBuffer(wQue, 1, wBytes);
        pipe.InitBuffer(xQue, BUFFER_NUM, kSize * lTile * sizeof(float));
        pipe.InitBuffer(accQue, BUFFER_NUM, coTile * lTile * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        int32_t loadedGroup = -1;
        AscendC::LocalTensor<float> wLocal;
        for (uint32_t u = unitBegin; u < unitEnd; ++u) {
            uint32_t lt = u % lTiles;
            uint32_t b = (u / lTiles) % batch;
            uint32_t cg = u / (lTiles * batch);
            if (static_cast<int32_t>(cg) != loadedGroup) {
                if (loadedGroup >= 0) {
                    wQue.FreeTensor(wLocal);
                }
                wLocal = LoadWeights(cg);
                loadedGroup = static_cast<int32_t>(cg);
            }
            uint32_t l0 = lt * lTile;
            uint32_t curL = (l0 + lTile <= lenOut) ? lTile : (lenOut - l0);
            ComputeUnit(wLocal, b, cg, l0, curL);
            StoreUnit(b, cg, l0, curL);
        }
        if (loadedGroup >= 0) {
            wQue.FreeTensor(wLocal);
        }
    }

private:
    __aicore__ inline AscendC::LocalTensor<float> LoadWeights(uint32_t cg)
    {
        AscendC::LocalTensor<float> wl = wQue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(wCount * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wl, wGm[(uint64_t)cg * wCount], cp, pad);
        wQue.EnQue(wl);
        wl = wQue.DeQue<float>();
        // weights are consumed by the scalar unit, so wait for MTE2 explicitly
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);
        return wl;
    }

    __aicore__ inline void LoadShifted(uint32_t b, uint32_t ci, uint32_t l0, uint32_t curL)
    {
        AscendC::LocalTensor<float> xs = xQue.AllocTensor<float>();
        uint64_t rowBase = ((uint64_t)b * cin + ci) * lenIn + l0;
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(curL * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t k = 0; k < kSize; ++k) {
            AscendC::DataCopyPad(xs[k * lTile], xGm[rowBase + (uint64_t)k * dilation], cp, pad);
        }
        xQue.EnQue(xs);
    }

    __aicore__ inline void ComputeUnit(AscendC::LocalTensor<float>& wLocal, uint32_t b, uint32_t cg,
                                       uint32_t l0, uint32_t curL)
    {
        AscendC::LocalTensor<float> acc = accQue.AllocTensor<float>();
        AscendC::Duplicate(acc, 0.0f, coTile * lTile);

        for (uint32_t ci = 0; ci < cin; ++ci) {
            LoadShifted(b, ci, l0, curL);
            AscendC::LocalTensor<float> xs = xQue.DeQue<float>();
            for (uint32_t co = 0; co < coTile; ++co) {
                uint32_t wRow = (co * cin + ci) * kSize;
                AscendC::LocalTensor<float> accRow = acc[co * lTile];
                for (uint32_t k = 0; k < kSize; ++k) {
                    float wv = wLocal.GetValue(wRow + k);
                    AscendC::Axpy(accRow, xs[k * lTile], wv, curL);
                }
            }
            xQue.FreeTensor(xs);
        }
        accQue.EnQue(acc);
    }

    __aicore__ inline void StoreUnit(uint32_t b, uint32_t cg, uint32_t l0, uint32_t curL)
    {
        AscendC::LocalTensor<float> acc = accQue.DeQue<float>();
        uint64_t dst = ((uint64_t)b * cout + (uint64_t)cg * coTile) * lenOut + l0;
        // coTile rows at once: UB rows are lTile apart, GM rows lenOut apart
        AscendC::DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(coTile);
        cp.blockLen = static_cast<uint32_t>(curL * sizeof(float));
        cp.srcStride = static_cast<uint32_t>((lTile - curL) * sizeof(float) / 32);
        cp.dstStride = static_cast<uint32_t>((lenOut - curL) * sizeof(float));
        cp.rsv = 0;
        AscendC::DataCopyPad(yGm[dst], acc, cp);
        accQue.FreeTensor(acc);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> wQue;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> xQue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> accQue;
    AscendC::GlobalTensor<float> xGm, wGm, yGm;

    uint32_t batch, cin, cout, kSize, dilation;
    uint32_t lenIn, lenOut;
    uint32_t coTile, lTile, lTiles;
    uint32_t wCount;
    uint32_t unitBegin, unitEnd;
};

extern "C" __global__ __aicore__ void conv_standard1d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ConvStandard1dKernel op;
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
    TORCH_CHECK(x.dim() == 3 && weight.dim() == 3, "conv1d expects (N, C, L) input and (Cout, Cin, K) weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "groups != 1 is not supported");
    const int64_t dilation = 1;
    int64_t lenOut = x.size(2) - dilation * (weight.size(2) - 1);
    TORCH_CHECK(lenOut > 0, "input too short for the kernel");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor result = at::empty({xc.size(0), wc.size(0), lenOut}, xc.options());
    EXEC_NPU_CMD(aclnnConvStandard1dCustom, xc, wc, dilation, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard1d_custom", &conv_standard1d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard1d_custom", &conv_standard1d_custom_impl_npu, "standard 1D convolution");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=False):
        super(ModelNew, self).__init__()
        self.conv1d = torch.nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                      dilation=dilation, groups=groups, bias=bias)

    def forward(self, x):
        return custom_ops_lib.conv_standard1d_custom(x, self.conv1d.weight)
'''
