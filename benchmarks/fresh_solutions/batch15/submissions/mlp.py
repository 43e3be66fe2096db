project_json_src='''
[
    {
        "op": "MlpCustom",
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
            },
            {
                "name": "bias",
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
                "name": "with_relu",
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
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MlpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, withRelu);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MlpCustom, MlpCustomTilingData)
}
"""

host_operator_src="""
#include "mlp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
// One MlpCustom launch = one nn.Linear layer (y = x W^T + b), optionally followed
// by ReLU. The MLP is executed layer by layer from the binding.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());

    const gert::Shape& xShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& wShape = context->GetInputShape(1)->GetOriginShape();
    int32_t M = static_cast<int32_t>(xShape.GetDim(0));
    int32_t K = static_cast<int32_t>(xShape.GetDim(1));
    int32_t N = static_cast<int32_t>(wShape.GetDim(0));   // weight is (out, in)
    if (wShape.GetDim(1) != K) {
        return ge::GRAPH_FAILED;
    }

    const int64_t* reluAttr = context->GetAttrs()->GetInt(0);
    uint32_t withRelu = (reluAttr == nullptr || *reluAttr != 0) ? 1 : 0;

    uint32_t aivNum = platform.GetCoreNumAiv();
    uint32_t aicNum = platform.GetCoreNumAic();

    MultiCoreMatmulTiling mm(platform);
    mm.SetDim(aivNum);
    mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(TPosition::VECIN, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(M, N, K);
    mm.SetOrgShape(M, N, K);
    mm.EnableBias(true);
    // leave L1/L0C/UB sizing to the library
    mm.SetBufferSpace(-1, -1, -1);
    // 128 x 128 fp32 base blocks: two of them (double-buffered epilogue) fit in UB
    mm.SetFixSplit(128, 128, -1);

    MlpCustomTilingData tiling;
    if (mm.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    // the epilogue copies whole base blocks; make sure there are no ragged ones
    if (M % tiling.cubeTilingData.get_baseM() != 0 || N % tiling.cubeTilingData.get_baseN() != 0) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_withRelu(withRelu);

    // mixed AIC/AIV kernel: block dim is counted in cube cores
    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xShape = context->GetInputShape(0);
    const gert::Shape* wShape = context->GetInputShape(1);
    gert::Shape* yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
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
class MlpCustom : public OpDef {
public:
    explicit MlpCustom(const char* name) : OpDef(name)
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
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("with_relu").AttrType(OPTIONAL).Int(1);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MlpCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

__aicore__ inline uint32_t DivUp(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

// Linear (+ReLU) layer: the cube unit computes x * W^T + b block by block,
// every finished baseM x baseN block is pulled into UB, passed through ReLU on
// the vector unit (if requested) and written to its place in y.
class MlpLinearKernel {
public:
    using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
    using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;
    using CType = MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

    __aicore__ inline MlpLinearKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y,
                                const TCubeTiling& tiling, uint32_t withRelu)
    {
        this->tiling = tiling;
        this->withRelu = withRelu;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)tiling.M * tiling.Ka);
        wGm.SetGlobalBuffer((__gm__ float*)w, (uint64_t)tiling.Kb * tiling.N);
        biasGm.SetGlobalBuffer((__gm__ float*)bias, tiling.N);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)tiling.M * tiling.N);

        // locate the (singleCoreM x singleCoreN) tile owned by this core
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint32_t mBlocks = DivUp(tiling.M, tiling.singleCoreM);
        mCoreIdx = blockIdx % mBlocks;
        nCoreIdx = blockIdx / mBlocks;

        uint64_t offA = (uint64_t)mCoreIdx * tiling.singleCoreM * tiling.Ka;
        uint64_t offB = (uint64_t)nCoreIdx * tiling.singleCoreN * tiling.Kb;   // W is (N, K)
        uint64_t offBias = (uint64_t)nCoreIdx * tiling.singleCoreN;
        uint64_t offC = (uint64_t)mCoreIdx * tiling.singleCoreM * tiling.N +
                        (uint64_t)nCoreIdx * tiling.singleCoreN;

        xGm = xGm[offA];
        wGm = wGm[offB];
        biasGm = biasGm[offBias];
        yGm = yGm[offC];

        int32_t remainM = tiling.M - mCoreIdx * tiling.singleCoreM;
        int32_t remainN = tiling.N - nCoreIdx * tiling.singleCoreN;
        curM = remainM < tiling.singleCoreM ? remainM : tiling.singleCoreM;
        curN = remainN < tiling.singleCoreN ? remainN : tiling.singleCoreN;
    }

    __aicore__ inline void Process(AscendC::TPipe* pipe)
    {
        if (AscendC::GetBlockIdx() >= (uint32_t)tiling.usedCoreNum) {
            return;
        }
        pipe->InitBuffer(outQue, 2, tiling.baseM * tiling.baseN * sizeof(float));

        mm.SetTensorA(xGm);
        mm.SetTensorB(wGm, true);
        mm.SetBias(biasGm);
        mm.SetTail(curM, curN);

        uint32_t roundM = DivUp(curM, tiling.baseM);
        uint32_t step = 0;
        while (mm.template Iterate<true>()) {
            AscendC::LocalTensor<float> blk = outQue.AllocTensor<float>();
            mm.template GetTensorC<true>(blk, false, true);
            if (withRelu != 0) {
                AscendC::Relu(blk, blk, tiling.baseM * tiling.baseN);
            }
            outQue.EnQue(blk);
            StoreBlock(step, roundM);
            ++step;
        }
        mm.End();
    }

private:
    __aicore__ inline void StoreBlock(uint32_t step, uint32_t roundM)
    {
        AscendC::LocalTensor<float> blk = outQue.DeQue<float>();
        uint32_t mi = step % roundM;
        uint32_t ni = step / roundM;
        uint64_t dst = (uint64_t)mi * tiling.baseM * tiling.N + (uint64_t)ni * tiling.baseN;
        AscendC::DataCopyParams params;
        params.blockCount = static_cast<uint16_t>(tiling.baseM);
        params.blockLen = static_cast<uint16_t>(tiling.baseN * sizeof(float) / 32);
        params.srcStride = 0;
        params.dstStride = static_cast<uint16_t>((tiling.N - tiling.baseN) * sizeof(float) / 32);
        AscendC::DataCopy(yGm[dst], blk, params);
        outQue.FreeTensor(blk);
    }

public:
    Matmul<AType, BType, CType, BiasType> mm;

private:
    TCubeTiling tiling;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQue;
    AscendC::GlobalTensor<float> xGm, wGm, biasGm, yGm;
    uint32_t withRelu = 1;
    uint32_t mCoreIdx = 0;
    uint32_t nCoreIdx = 0;
    int32_t curM = 0;
    int32_t curN = 0;
};

extern "C" __global__ __aicore__ void mlp_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    MlpLinearKernel kernel;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), kernel.mm, &tilingData.cubeTilingData);
    kernel.Init(x, weight, bias, y, tilingData.cubeTilingData, tilingData.withRelu);
    kernel.Process(&pipe);
}
"""

python_bind_src="""
#include <vector>
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Runs the whole MLP: every hidden layer is Linear+ReLU, the last one is a plain Linear.
at::Tensor mlp_custom_impl_npu(const at::Tensor& x,
                               const std::vector<at::Tensor>& weights,
                               const std::vector<at::Tensor>& biases)
{
    TORCH_CHECK(weights.size() == biases.size() && !weights.empty(), "weights/biases mismatch");
    at::Tensor h = x.contiguous();
    for (size_t i = 0; i < weights.size(); ++i) {
        int64_t withRelu = (i + 1 < weights.size()) ? 1 : 0;
        at::Tensor w = weights[i].contiguous();
        at::Tensor b = biases[i].contiguous();
        at::Tensor out = at::empty({h.size(0), w.size(0)}, h.options());
        EXEC_NPU_CMD(aclnnMlpCustom, h, w, b, withRelu, out);
        h = out;
    }
    return h;
}

at::Tensor mlp_custom_list_npu(const at::Tensor& x, at::TensorList weights, at::TensorList biases)
{
    return mlp_custom_impl_npu(x, weights.vec(), biases.vec());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mlp_custom", &mlp_custom_list_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mlp_custom", &mlp_custom_impl_npu, "MLP: stacked Linear+ReLU layers");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super(ModelNew, self).__init__()
        layers = []
        current_input_size = input_size
        for layer_size in layer_sizes:
            layers.append(torch.nn.Linear(current_input_size, layer_size))
            layers.append(torch.nn.ReLU())
            current_input_size = layer_size
        layers.append(torch.nn.Linear(current_input_size, output_size))
        self.network = torch.nn.Sequential(*layers)

    def forward(self, x):
        linears = [m for m in self.network if isinstance(m, torch.nn.Linear)]
        weights = [m.weight for m in linears]
        biases = [m.bias for m in linears]
        return custom_ops_lib.mlp_custom(x, weights, biases)
'''
