project_json_src='''
[
    {
        "op": "ConvPointwise2dCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvPointwise2dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, hw);
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvPointwise2dCustom, ConvPointwise2dCustomTilingData)
}
"""

host_operator_src="""
#include "conv_pointwise_2d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
// A 1x1 convolution in NCHW is, per image, Y_b[Cout, HW] = W[Cout, Cin] * X_b[Cin, HW].
// We tile that GEMM once (M = Cout, N = H*W, K = Cin) and replay it for every image.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const auto& xShape = context->GetInputShape(0)->GetOriginShape();   // [B, Cin, H, W]
    const auto& wShape = context->GetInputShape(1)->GetOriginShape();   // [Cout, Cin, 1, 1]

    uint32_t batch = xShape.GetDim(0);
    uint32_t cin = xShape.GetDim(1);
    uint32_t hw = xShape.GetDim(2) * xShape.GetDim(3);
    uint32_t cout = wShape.GetDim(0);

    uint32_t aicNum = ascendcPlatform.GetCoreNumAic();
    MultiCoreMatmulTiling tiler(ascendcPlatform);
    tiler.SetDim(aicNum);
    tiler.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    tiler.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    tiler.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(cout, hw, cin);
    tiler.SetOrgShape(cout, hw, cin);
    tiler.SetBias(false);
    tiler.SetBufferSpace(-1, -1, -1);

    ConvPointwise2dCustomTilingData tiling;
    if (tiler.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t sm = tiling.cubeTiling.get_singleCoreM();
    uint32_t sn = tiling.cubeTiling.get_singleCoreN();
    uint32_t mBlocks = (cout + sm - 1) / sm;
    uint32_t nBlocks = (hw + sn - 1) / sn;

    tiling.set_batch(batch);
    tiling.set_cin(cin);
    tiling.set_cout(cout);
    tiling.set_hw(hw);
    tiling.set_mBlocks(mBlocks);
    tiling.set_nBlocks(nBlocks);

    uint32_t blockDim = mBlocks * nBlocks;
    if (blockDim > aicNum) blockDim = aicNum;
    context->SetBlockDim(blockDim);

    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* wShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    yShape->SetDim(1, wShape->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ConvPointwise2dCustom : public OpDef {
public:
    explicit ConvPointwise2dCustom(const char* name) : OpDef(name)
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

OP_ADD(ConvPointwise2dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

class ConvPointwise2dKernel {
public:
    using WType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using XType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using YType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using BiasT = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline ConvPointwise2dKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const ConvPointwise2dCustomTilingData& td)
    {
        batch = td.batch;
        cin = td.cin;
        cout = td.cout;
        hw = td.hw;
        mBlocks = td.mBlocks;
        nBlocks = td.nBlocks;
        singleM = td.cubeTiling.singleCoreM;
        singleN = td.cubeTiling.singleCoreN;

        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)batch * cin * hw);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)cout * cin);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)batch * cout * hw);
    }

    // Every core walks the same (m, n) block schedule for each image in turn.
    __aicore__ inline void Process()
    {
        uint32_t blocks = mBlocks * nBlocks;
        uint32_t step = AscendC::GetBlockNum();
        for (uint32_t blk = AscendC::GetBlockIdx(); blk < blocks; blk += step) {
            uint32_t mIdx = blk % mBlocks;
            uint32_t nIdx = blk / mBlocks;
            uint32_t m0 = mIdx * singleM;
            uint32_t n0 = nIdx * singleN;
            int32_t tm = (int32_t)(cout - m0) < singleM ? (int32_t)(cout - m0) : singleM;
            int32_t tn = (int32_t)(hw - n0) < singleN ? (int32_t)(hw - n0) : singleN;

            for (uint32_t b = 0; b < batch; ++b) {
                uint64_t xImg = (uint64_t)b * cin * hw;
                uint64_t yImg = (uint64_t)b * cout * hw;
                mm.SetTensorA(wGm[(uint64_t)m0 * cin]);
                mm.SetTensorB(xGm[xImg + n0]);
                mm.SetTail(tm, tn);
                mm.IterateAll(yGm[yImg + (uint64_t)m0 * hw + n0]);
            }
        }
        mm.End();
    }

    Matmul<WType, XType, YType, BiasT> mm;

private:
    AscendC::GlobalTensor<float> xGm, wGm, yGm;
    uint32_t batch, cin, cout, hw;
    uint32_t mBlocks, nBlocks;
    int32_t singleM, singleN;
};

extern "C" __global__ __aicore__ void conv_pointwise_2d_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    ConvPointwise2dKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTiling);
    op.Init(x, weight, y, tilingData);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_pointwise_2d_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight) {
    TORCH_CHECK(x.dim() == 4, "x must be NCHW");
    at::Tensor xc = x.contiguous();
    // [Cout, Cin, 1, 1] -> [Cout, Cin]
    at::Tensor w2d = weight.reshape({weight.size(0), weight.size(1)}).contiguous();
    at::Tensor y = at::empty({xc.size(0), w2d.size(0), xc.size(2), xc.size(3)}, xc.options());
    EXEC_NPU_CMD(aclnnConvPointwise2dCustom, xc, w2d, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_pointwise_2d_custom", &conv_pointwise_2d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_pointwise_2d_custom", &conv_pointwise_2d_custom_impl_npu, "1x1 Conv2d as batched GEMM");
}
"""

model_src='''
import torch
import torch.nn as nn
import torch_npu
import custom_ops_lib

class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, bias: bool = False):
        super(ModelNew, self).__init__()
        self.conv1d = nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=1, padding=0, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = custom_ops_lib.conv_pointwise_2d_custom(x, self.conv1d.weight)
        if self.conv1d.bias is not None:
            y = y + self.conv1d.bias.view(1, -1, 1, 1)
        return y
'''
