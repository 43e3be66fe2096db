project_json_src='''
[
    {
        "op": "Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "divisor", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, depth);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, rowAlign);      // width padded to 16 floats in UB
  TILING_DATA_FIELD_DEF(uint32_t, pooledD);
  TILING_DATA_FIELD_DEF(uint32_t, pooledH);
  TILING_DATA_FIELD_DEF(uint32_t, pooledW);
  TILING_DATA_FIELD_DEF(uint32_t, gatherRepeat);  // 64-float repeats of the row-pair buffer
  TILING_DATA_FIELD_DEF(float, invCountDiv);      // 1 / (pooled voxels * divisor)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom,
                           Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData)
}
"""

host_operator_src="""
#include "conv3d_divide_max_global_avg_pool_bias_add_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData td;
    auto s = context->GetInputShape(0)->GetOriginShape();
    uint32_t n = s.GetDim(0), c = s.GetDim(1), d = s.GetDim(2), h = s.GetDim(3), w = s.GetDim(4);
    float divisor = *context->GetAttrs()->GetAttrPointer<float>(0);

    uint32_t pd = d / 2, ph = h / 2, pw = w / 2;
    uint32_t rowAlign = (w + 15) / 16 * 16;
    uint32_t rep = (ph * rowAlign + 63) / 64;

    td.set_batch(n);
    td.set_channels(c);
    td.set_depth(d);
    td.set_height(h);
    td.set_width(w);
    td.set_rowAlign(rowAlign);
    td.set_pooledD(pd);
    td.set_pooledH(ph);
    td.set_pooledW(pw);
    td.set_gatherRepeat(rep);
    td.set_invCountDiv(1.0f / (static_cast<float>(pd) * ph * pw * divisor));

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > n) cores = n;
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
    out->SetDimNum(4);
    out->SetDim(0, in->GetDim(0));
    out->SetDim(1, 1);
    out->SetDim(2, 1);
    out->SetDim(3, 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom : public OpDef {
public:
    explicit Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("divisor").AttrType(OPTIONAL).Float(1.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// For every sample n:
//   out[n] = sum_c ( mean(maxpool2(conv[n, c])) / divisor + bias[c] )
// Dividing by a positive constant commutes with max, and the channel sum of means is
// (1 / (count * divisor)) * sum over all pooled voxels of all channels, so one vector
// accumulator per sample is enough; a single ReduceSum finishes it.
class KernelDivMaxAvgBiasSum {
public:
    __aicore__ inline KernelDivMaxAvgBiasSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                const Conv3dDivideMaxGlobalAvgPoolBiasAddSumCustomTilingData& td)
    {
        N = td.batch; C = td.channels; D = td.depth; H = td.height; W = td.width;
        Wa = td.rowAlign; PD = td.pooledD; PH = td.pooledH;
        rep = td.gatherRepeat;
        invCnt = td.invCountDiv;
        halfLen = rep * 32;                  // floats produced by one GatherMask pass

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)N * C * D * H * W);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, C);
        yGm.SetGlobalBuffer((__gm__ float*)y, N);

        uint32_t slab = H * Wa;
        pipe.InitBuffer(frontQ, BUFFER_NUM, slab * sizeof(float));
        pipe.InitBuffer(backQ, BUFFER_NUM, slab * sizeof(float));
        pipe.InitBuffer(outQ, 1, 8 * sizeof(float));
        pipe.InitBuffer(pairBuf, rep * 64 * sizeof(float));
        pipe.InitBuffer(evenBuf, halfLen * sizeof(float));
        pipe.InitBuffer(oddBuf, halfLen * sizeof(float));
        pipe.InitBuffer(accBuf, halfLen * sizeof(float));
        pipe.InitBuffer(redBuf, halfLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float biasSum = 0.0f;
        for (uint32_t c = 0; c < C; ++c) {
            biasSum += biasGm.GetValue(c);
        }
        LocalTensor<float> pair = pairBuf.Get<float>();
        Duplicate(pair, 0.0f, rep * 64);   // tail past PH*Wa stays zero

        for (uint32_t n = GetBlockIdx(); n < N; n += GetBlockNum()) {
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, halfLen);
            for (uint32_t c = 0; c < C; ++c) {
                uint64_t chanBase = ((uint64_t)n * C + c) * D * H * W;
                for (uint32_t pd = 0; pd < PD; ++pd) {
                    LoadSlab(frontQ, chanBase + (uint64_t)(2 * pd) * H * W);
                    LoadSlab(backQ, chanBase + (uint64_t)(2 * pd + 1) * H * W);
                    PoolAndAccumulate(acc);
                }
            }
            Finish(acc, n, biasSum);
        }
    }

private:
    __aicore__ inline void LoadSlab(TQue<QuePosition::VECIN, BUFFER_NUM>& q, uint64_t offset)
    {
        LocalTensor<float> t = q.AllocTensor<float>();
        DataCopyExtParams cp;
        cp.blockCount = static_cast<uint16_t>(H);
        cp.blockLen = W * sizeof(float);
        cp.srcStride = 0;
        cp.dstStride = 0;
        // zero padding on the right: padded lanes pool to 0 and add nothing to the sum
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(Wa - W), 0.0f};
        DataCopyPad(t, xGm[offset], cp, pad);
        q.EnQue(t);
    }

    __aicore__ inline void PoolAndAccumulate(LocalTensor<float>& acc)
    {
        LocalTensor<float> fr = frontQ.DeQue<float>();
        LocalTensor<float> bk = backQ.DeQue<float>();
        LocalTensor<float> pair = pairBuf.Get<float>();
        LocalTensor<float> ev = evenBuf.Get<float>();
        LocalTensor<float> od = oddBuf.Get<float>();

        Max(fr, fr, bk, H * Wa);                                  // depth pair
        for (uint32_t ph = 0; ph < PH; ++ph) {                     // row pair
            Max(pair[ph * Wa], fr[2 * ph * Wa], fr[(2 * ph + 1) * Wa], Wa);
        }
        frontQ.FreeTensor(fr);
        backQ.FreeTensor(bk);

        uint64_t rsvd = 0;
        GatherMaskParams gp;
        gp.src0BlockStride = 1;
        gp.repeatTimes = static_cast<uint16_t>(rep);
        gp.src0RepeatStride = 8;
        gp.src1RepeatStride = 0;
        GatherMask(ev, pair, 1, false, 0, gp, rsvd);              // even columns
        GatherMask(od, pair, 2, false, 0, gp, rsvd);              // odd columns
        Max(ev, ev, od, halfLen);                                 // column pair
        Add(acc, acc, ev, halfLen);
    }

    __aicore__ inline void Finish(LocalTensor<float>& acc, uint32_t n, float biasSum)
    {
        LocalTensor<float> work = redBuf.Get<float>();
        LocalTensor<float> res = outQ.AllocTensor<float>();
        ReduceSum(res, acc, work, halfLen);
        Muls(res, res, invCnt, 8);
        Adds(res, res, biasSum, 8);
        outQ.EnQue(res);

        res = outQ.DeQue<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[n], res, cp);
        outQ.FreeTensor(res);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> frontQ, backQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<QuePosition::VECCALC> pairBuf, evenBuf, oddBuf, accBuf, redBuf;
    GlobalTensor<float> xGm, biasGm, yGm;
    uint32_t N, C, D, H, W, Wa, PD, PH, rep, halfLen;
    float invCnt;
};

extern "C" __global__ __aicore__ void conv3d_divide_max_global_avg_pool_bias_add_sum_custom(
    GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelDivMaxAvgBiasSum op;
    op.Init(x, bias, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv3d_divide_max_global_avg_pool_bias_add_sum_impl_npu(
    const at::Tensor& x, const at::Tensor& conv_w, const at::Tensor& conv_b,
    const at::Tensor& bias, double divisor)
{
    at::Tensor conv = at::conv3d(x, conv_w, conv_b).contiguous();
    at::Tensor b = bias.reshape({-1}).contiguous();
    at::Tensor y = at::empty({conv.size(0), 1, 1, 1}, conv.options());
    float div = static_cast<float>(divisor);
    EXEC_NPU_CMD(aclnnConv3dDivideMaxGlobalAvgPoolBiasAddSumCustom, conv, b, div, y);
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_divide_max_global_avg_pool_bias_add_sum_custom",
          &conv3d_divide_max_global_avg_pool_bias_add_sum_impl_npu,
          "conv3d / div -> maxpool3d -> global avg -> +bias -> sum(dim=1)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, divisor, pool_size, bias_shape, sum_dim):
        super(ModelNew, self).__init__()
        self.conv = torch.nn.Conv3d(in_channels, out_channels, kernel_size)
        self.divisor = divisor
        self.bias = torch.nn.Parameter(torch.randn(bias_shape))
        self.sum_dim = sum_dim

    def forward(self, x):
        # kernel implements pool_size=2 and the channel sum (sum_dim=1)
        return custom_ops_lib.conv3d_divide_max_global_avg_pool_bias_add_sum_custom(
            x, self.conv.weight, self.conv.bias, self.bias, float(self.divisor))
'''
