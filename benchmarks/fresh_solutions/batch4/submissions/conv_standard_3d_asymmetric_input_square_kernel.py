project_json_src='''
[
    {
        "op": "ConvStandard3dAsymmetricInputSquareKernelCustom",
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
BEGIN_TILING_DATA_DEF(ConvStandard3dAsymmetricInputSquareKernelCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, d);          // 最内层维度，卷积核在该维上为 1
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, ho);
  TILING_DATA_FIELD_DEF(uint32_t, wo);
  TILING_DATA_FIELD_DEF(uint32_t, owChunk);    // 每个任务处理的 ow 个数
  TILING_DATA_FIELD_DEF(uint32_t, chunkNum);
  TILING_DATA_FIELD_DEF(uint32_t, sliceStride);// UB 中一条输入切片占用的 float 数
  TILING_DATA_FIELD_DEF(uint32_t, coGroup);    // 一次写回的输出通道数
  TILING_DATA_FIELD_DEF(uint32_t, totalTask);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvStandard3dAsymmetricInputSquareKernelCustom, ConvStandard3dAsymmetricInputSquareKernelCustomTilingData)
}
"""

host_operator_src="""
#include "conv_standard3d_asymmetric_input_square_kernel_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t SLICE_BUDGET = 72 * 1024;    // 输入切片缓存上限（字节）

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ConvStandard3dAsymmetricInputSquareKernelCustomTilingData tiling;
    auto xs = context->GetInputShape(0)->GetStorageShape();   // [N, Cin, H, W, D]
    auto wsh = context->GetInputShape(1)->GetStorageShape();  // [Cout, Cin, K, K, 1]
    uint32_t batch = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t h = xs.GetDim(2);
    uint32_t w = xs.GetDim(3);
    uint32_t d = xs.GetDim(4);
    uint32_t cout = wsh.GetDim(0);
    uint32_t k = wsh.GetDim(2);
    uint32_t ho = h - k + 1;
    uint32_t wo = w - k + 1;

    // 选 owChunk：cin*k*k 条切片，每条 owChunk*d 个 float，总量不超过 SLICE_BUDGET
    uint32_t slices = cin * k * k;
    uint32_t owChunk = wo;
    while (owChunk > 1 && slices * ((owChunk * d + 7) / 8 * 8) * sizeof(float) > SLICE_BUDGET) {
        owChunk = (owChunk + 1) / 2;
    }
    uint32_t chunkNum = (wo + owChunk - 1) / owChunk;
    uint32_t sliceStride = (owChunk * d + 7) / 8 * 8;

    uint32_t coGroup = 8;
    while (coGroup > 1 && cout % coGroup != 0) {
        coGroup /= 2;
    }
    uint32_t totalTask = batch * ho * chunkNum;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = plat.GetCoreNumAiv();
    coreNum = coreNum == 0 ? 1 : coreNum;
    context->SetBlockDim(coreNum < totalTask ? coreNum : totalTask);

    tiling.set_batch(batch);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_h(h);
    tiling.set_w(w);
    tiling.set_d(d);
    tiling.set_k(k);
    tiling.set_ho(ho);
    tiling.set_wo(wo);
    tiling.set_owChunk(owChunk);
    tiling.set_chunkNum(chunkNum);
    tiling.set_sliceStride(sliceStride);
    tiling.set_coGroup(coGroup);
    tiling.set_totalTask(totalTask);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(5);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    y->SetDim(4, x->GetDim(4) - w->GetDim(4) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvStandard3dAsymmetricInputSquareKernelCustom : public OpDef {
public:
    explicit ConvStandard3dAsymmetricInputSquareKernelCustom(const char* name) : OpDef(name)
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

OP_ADD(ConvStandard3dAsymmetricInputSquareKernelCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Conv3d，卷积核 (K, K, 1)，stride 1，无 padding。
// 最内层维度 d 的核长为 1，所以把 (w, d) 展平成一行：
//   y[n, co, oh, ow*d + dd] = sum_{ci, kh, kw} wt[co, ci, kh, kw] * x[n, ci, oh+kh, (ow+kw)*d + dd]
// 即输出行是若干条“按 kw*d 平移的输入行”的加权和，可以整段做向量 Axpy。
// 任务 = (n, oh, ow 分块)；输入切片一次搬入后被全部 cout 个通道复用。
class KernelConv3dK11 {
public:
    __aicore__ inline KernelConv3dK11() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR y,
                                const ConvStandard3dAsymmetricInputSquareKernelCustomTilingData& td)
    {
        batch = td.batch; cin = td.cin; cout = td.cout;
        h = td.h; w = td.w; d = td.d; k = td.k;
        ho = td.ho; wo = td.wo;
        owChunk = td.owChunk; chunkNum = td.chunkNum;
        sliceStride = td.sliceStride; coGroup = td.coGroup;
        totalTask = td.totalTask;
        kk = k * k;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)wt);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(sliceQue, 1, cin * kk * sliceStride * sizeof(float));
        pipe.InitBuffer(outQue, BUFFER_NUM, coGroup * sliceStride * sizeof(float));
        pipe.InitBuffer(wBuf, (cout * cin * kk + 7) / 8 * 8 * sizeof(float));

        // 权重很小（64*3*3*3），整体常驻 UB
        wLocal = wBuf.Get<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cout * cin * kk * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(wLocal, wGm, cp, pad);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t task = AscendC::GetBlockIdx(); task < totalTask; task += AscendC::GetBlockNum()) {
            uint32_t chunk = task % chunkNum;
            uint32_t rest = task / chunkNum;
            uint32_t oh = rest % ho;
            uint32_t n = rest / ho;
            uint32_t ow0 = chunk * owChunk;
            uint32_t owCnt = (ow0 + owChunk <= wo) ? owChunk : (wo - ow0);
            uint32_t len = owCnt * d;

            LoadSlices(n, oh, ow0, len);
            AscendC::LocalTensor<float> slices = sliceQue.DeQue<float>();
            for (uint32_t co0 = 0; co0 < cout; co0 += coGroup) {
                ComputeGroup(slices, co0, len);
                StoreGroup(n, oh, ow0, co0, len);
            }
            sliceQue.FreeTensor(slices);
        }
    }

private:
    // 切片布局：[(ci * k + kw) * k + kh][sliceStride]
    __aicore__ inline void LoadSlices(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t len)
    {
        AscendC::LocalTensor<float> slices = sliceQue.AllocTensor<float>();
        uint32_t rowLen = w * d;
        uint32_t alignedBytes = (len * sizeof(float) + 31) / 32 * 32;
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(k),
                                      static_cast<uint32_t>(len * sizeof(float)),
                                      static_cast<uint32_t>((rowLen - len) * sizeof(float)),
                                      static_cast<uint32_t>((sliceStride * sizeof(float) - alignedBytes) / 32),
                                      0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t ci = 0; ci < cin; ++ci) {
            uint64_t rowBase = (((uint64_t)n * cin + ci) * h + oh) * rowLen + (uint64_t)ow0 * d;
            for (uint32_t kw = 0; kw < k; ++kw) {
                AscendC::DataCopyPad(slices[(ci * k + kw) * k * sliceStride], xGm[rowBase + kw * d], cp, pad);
            }
        }
        sliceQue.EnQue(slices);
    }

    __aicore__ inline void ComputeGroup(AscendC::LocalTensor<float>& slices, uint32_t co0, uint32_t len)
    {
        AscendC::LocalTensor<float> acc = outQue.AllocTensor<float>();
        AscendC::Duplicate(acc, 0.0f, coGroup * sliceStride);
        for (uint32_t c = 0; c < coGroup; ++c) {
            uint32_t wBase = (co0 + c) * cin * kk;
            AscendC::LocalTensor<float> dst = acc[c * sliceStride];
            for (uint32_t ci = 0; ci < cin; ++ci) {
                for (uint32_t kh = 0; kh < k; ++kh) {
                    for (uint32_t kw = 0; kw < k; ++kw) {
                        float wv = wLocal.GetValue(wBase + ci * kk + kh * k + kw);
                        AscendC::Axpy(dst, slices[((ci * k + kw) * k + kh) * sliceStride], wv, len);
                    }
                }
            }
        }
        outQue.EnQue(acc);
    }

    __aicore__ inline void StoreGroup(uint32_t n, uint32_t oh, uint32_t ow0, uint32_t co0, uint32_t len)
    {
        AscendC::LocalTensor<float> res = outQue.DeQue<float>();
        uint64_t outRow = (uint64_t)wo * d;
        uint64_t plane = (uint64_t)ho * outRow;
        uint64_t dst = ((uint64_t)n * cout + co0) * plane + (uint64_t)oh * outRow + (uint64_t)ow0 * d;
        uint32_t alignedBytes = (len * sizeof(float) + 31) / 32 * 32;
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(coGroup),
                                      static_cast<uint32_t>(len * sizeof(float)),
                                      static_cast<uint32_t>((sliceStride * sizeof(float) - alignedBytes) / 32),
                                      static_cast<uint32_t>((plane - len) * sizeof(float)),
                                      0};
        AscendC::DataCopyPad(yGm[dst], res, cp);
        outQue.FreeTensor(res);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> sliceQue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wBuf;
    AscendC::LocalTensor<float> wLocal;
    AscendC::GlobalTensor<float> xGm, wGm, yGm;

    uint32_t batch, cin, cout, h, w, d, k, kk, ho, wo;
    uint32_t owChunk, chunkNum, sliceStride, coGroup, totalTask;
};

extern "C" __global__ __aicore__ void conv_standard3d_asymmetric_input_square_kernel_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConv3dK11 op;
    op.Init(x, weight, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard3d_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "输入与权重都必须是 5 维");
    TORCH_CHECK(weight.size(4) == 1, "最内层维度的卷积核长度必须为 1");
    at::Tensor y = at::empty({x.size(0), weight.size(0),
                              x.size(2) - weight.size(2) + 1,
                              x.size(3) - weight.size(3) + 1,
                              x.size(4)}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvStandard3dAsymmetricInputSquareKernelCustom, xc, wc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard3d_asymmetric_input_square_kernel_custom", &conv_standard3d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard3d_asymmetric_input_square_kernel_custom", &conv_standard3d_custom_impl_npu,
          "conv3d with (k, k, 1) kernel");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv3d = torch.nn.Conv3d(in_channels, out_channels, (kernel_size, kernel_size, 1), stride=stride,
                                      padding=padding, dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.conv_standard3d_asymmetric_input_square_kernel_custom(x, self.conv3d.weight)
'''
