project_json_src='''
[
    {
        "op": "MlpCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x",  "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "w1", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b1", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "w2", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b2", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "w3", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b3", "param_type": "required", "format": ["ND"], "type": ["float"]}
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
BEGIN_TILING_DATA_DEF(MlpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inFeatures);
  TILING_DATA_FIELD_DEF(uint32_t, hidden1);
  TILING_DATA_FIELD_DEF(uint32_t, hidden2);
  TILING_DATA_FIELD_DEF(uint32_t, outFeatures);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, layer1);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, layer2);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, layer3);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MlpCustom, MlpCustomTilingData)
}
"""

host_operator_src="""
#include "mlp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

// Builds the cube tiling of one Linear layer: C[M,N] = A[M,K] * W[N,K]^T + bias[N].
static bool BuildLayerTiling(const platform_ascendc::PlatformAscendC &platform, uint32_t aivNum,
                             int32_t M, int32_t N, int32_t K, TCubeTiling &out)
{
    matmul_tiling::MultiCoreMatmulTiling mt(platform);
    mt.SetDim(aivNum);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, false);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(M, N, K);
    mt.SetOrgShape(M, N, K);
    mt.SetBias(true);
    mt.SetBufferSpace(-1, -1, -1);
    return mt.GetTiling(out) != -1;
}

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = platform.GetCoreNumAiv();
    uint32_t aicNum = platform.GetCoreNumAic();

    const gert::StorageShape *xShape = context->GetInputShape(0);
    const gert::StorageShape *w1Shape = context->GetInputShape(1);
    const gert::StorageShape *w2Shape = context->GetInputShape(3);
    const gert::StorageShape *w3Shape = context->GetInputShape(5);

    int32_t M = xShape->GetStorageShape().GetDim(0);
    int32_t K0 = xShape->GetStorageShape().GetDim(1);
    int32_t N1 = w1Shape->GetStorageShape().GetDim(0);
    int32_t N2 = w2Shape->GetStorageShape().GetDim(0);
    int32_t N3 = w3Shape->GetStorageShape().GetDim(0);

    MlpCustomTilingData tiling;
    tiling.set_batch(M);
    tiling.set_inFeatures(K0);
    tiling.set_hidden1(N1);
    tiling.set_hidden2(N2);
    tiling.set_outFeatures(N3);
    if (!BuildLayerTiling(platform, aivNum, M, N1, K0, tiling.layer1) ||
        !BuildLayerTiling(platform, aivNum, M, N2, N1, tiling.layer2) ||
        !BuildLayerTiling(platform, aivNum, M, N3, N2, tiling.layer3)) {
        return ge::GRAPH_FAILED;
    }

    // mix kernel: one AIC drives two AIVs
    context->SetBlockDim(aicNum);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    // system workspace for the matmul library + two hidden activations
    size_t sysWs = platform.GetLibApiWorkSpaceSize();
    size_t hiddenWs = (static_cast<size_t>(M) * N1 + static_cast<size_t>(M) * N2) * sizeof(float);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = sysWs + hiddenWs;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    const gert::Shape *w3Shape = context->GetInputShape(5);
    gert::Shape *yShape = context->GetOutputShape(0);
    yShape->SetDimNum(2);
    yShape->SetDim(0, xShape->GetDim(0));
    yShape->SetDim(1, w3Shape->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class MlpCustom : public OpDef {
public:
    explicit MlpCustom(const char *name) : OpDef(name)
    {
        const char *inputs[] = {"x", "w1", "b1", "w2", "b2", "w3", "b3"};
        for (const char *in : inputs) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT})
                .Format({ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND});
        }
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

OP_ADD(MlpCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;   // nn.Linear weight is [out, in]
using CType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using LinearMM = Matmul<AType, BType, CType, BiasType>;

constexpr uint32_t RELU_TILE = 8192;   // floats per ReLU chunk

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

class KernelMlp {
public:
    __aicore__ inline KernelMlp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w1, GM_ADDR b1, GM_ADDR w2, GM_ADDR b2,
                                GM_ADDR w3, GM_ADDR b3, GM_ADDR y, GM_ADDR usrWs,
                                uint32_t M, uint32_t K0, uint32_t N1, uint32_t N2, uint32_t N3)
    {
        this->M = M; this->K0 = K0; this->N1 = N1; this->N2 = N2; this->N3 = N3;
        xGm.SetGlobalBuffer((__gm__ float *)x, (uint64_t)M * K0);
        w1Gm.SetGlobalBuffer((__gm__ float *)w1, (uint64_t)N1 * K0);
        b1Gm.SetGlobalBuffer((__gm__ float *)b1, N1);
        w2Gm.SetGlobalBuffer((__gm__ float *)w2, (uint64_t)N2 * N1);
        b2Gm.SetGlobalBuffer((__gm__ float *)b2, N2);
        w3Gm.SetGlobalBuffer((__gm__ float *)w3, (uint64_t)N3 * N2);
        b3Gm.SetGlobalBuffer((__gm__ float *)b3, N3);
        yGm.SetGlobalBuffer((__gm__ float *)y, (uint64_t)M * N3);
        h1Gm.SetGlobalBuffer((__gm__ float *)usrWs, (uint64_t)M * N1);
        h2Gm.SetGlobalBuffer((__gm__ float *)usrWs + (uint64_t)M * N1, (uint64_t)M * N2);
        pipe->InitBuffer(reluQueue, 2, RELU_TILE * sizeof(float));
    }

    __aicore__ inline void SetPipe(AscendC::TPipe *p) { pipe = p; }

    // One Linear layer: the cube part is done by the matmul object, ReLU on this core's output block
    // is applied by the vector unit right after; a global barrier separates consecutive layers.
    __aicore__ inline void Layer(LinearMM &mm, const TCubeTiling &t, AscendC::GlobalTensor<float> &a,
                                 AscendC::GlobalTensor<float> &w, AscendC::GlobalTensor<float> &bias,
                                 AscendC::GlobalTensor<float> &c, bool relu)
    {
        uint32_t mBlocks = CeilDiv(t.M, t.singleCoreM);
        uint32_t nBlocks = CeilDiv(t.N, t.singleCoreN);
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < mBlocks * nBlocks) {
            uint32_t mIdx = blockIdx % mBlocks;
            uint32_t nIdx = blockIdx / mBlocks;
            uint32_t m0 = mIdx * t.singleCoreM;
            uint32_t n0 = nIdx * t.singleCoreN;
            uint32_t tailM = (t.M - m0) < (uint32_t)t.singleCoreM ? (t.M - m0) : t.singleCoreM;
            uint32_t tailN = (t.N - n0) < (uint32_t)t.singleCoreN ? (t.N - n0) : t.singleCoreN;

            mm.SetTensorA(a[(uint64_t)m0 * t.Ka]);
            mm.SetTensorB(w[(uint64_t)n0 * t.Kb], true);
            mm.SetBias(bias[n0]);
            mm.SetTail(tailM, tailN);
            mm.IterateAll(c[(uint64_t)m0 * t.N + n0]);
            mm.End();

            if (relu) {
                ReluBlock(c, m0, n0, tailM, tailN, t.N);
            }
        }
        // the next layer reads every column of this one
        AscendC::SyncAll();
    }

    __aicore__ inline void Process(LinearMM &mm1, LinearMM &mm2, LinearMM &mm3, const TCubeTiling &t1,
                                   const TCubeTiling &t2, const TCubeTiling &t3)
    {
        Layer(mm1, t1, xGm, w1Gm, b1Gm, h1Gm, true);
        Layer(mm2, t2, h1Gm, w2Gm, b2Gm, h2Gm, true);
        Layer(mm3, t3, h2Gm, w3Gm, b3Gm, yGm, false);
    }

private:
    __aicore__ inline void ReluBlock(AscendC::GlobalTensor<float> &c, uint32_t m0, uint32_t n0,
                                     uint32_t rows, uint32_t cols, uint32_t ldc)
    {
        for (uint32_t r = 0; r < rows; ++r) {
            uint64_t rowBase = (uint64_t)(m0 + r) * ldc + n0;
            for (uint32_t c0 = 0; c0 < cols; c0 += RELU_TILE) {
                uint32_t len = (cols - c0) < RELU_TILE ? (cols - c0) : RELU_TILE;
                AscendC::LocalTensor<float> buf = reluQueue.AllocTensor<float>();
                AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
                AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                AscendC::DataCopyPad(buf, c[rowBase + c0], cp, pad);
                reluQueue.EnQue(buf);
                buf = reluQueue.DeQue<float>();
                AscendC::Relu(buf, buf, len);
                reluQueue.EnQue(buf);
                buf = reluQueue.DeQue<float>();
                AscendC::DataCopyPad(c[rowBase + c0], buf, cp);
                reluQueue.FreeTensor(buf);
            }
        }
    }

    AscendC::TPipe *pipe = nullptr;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 2> reluQueue;
    AscendC::GlobalTensor<float> xGm, w1Gm, b1Gm, w2Gm, b2Gm, w3Gm, b3Gm, yGm, h1Gm, h2Gm;
    uint32_t M, K0, N1, N2, N3;
};

extern "C" __global__ __aicore__ void mlp_custom(GM_ADDR x, GM_ADDR w1, GM_ADDR b1, GM_ADDR w2, GM_ADDR b2,
                                                 GM_ADDR w3, GM_ADDR b3, GM_ADDR y, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if (workspace == nullptr) {
        return;
    }
    AscendC::SetSysWorkspace(workspace);
    GM_ADDR usrWs = AscendC::GetUserWorkspace(workspace);
    GET_TILING_DATA(td, tiling);

    AscendC::TPipe pipe;
    LinearMM mm1, mm2, mm3;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &td.layer1, mm2, &td.layer2, mm3, &td.layer3);

    KernelMlp op;
    op.SetPipe(&pipe);
    op.Init(x, w1, b1, w2, b2, w3, b3, y, usrWs, td.batch, td.inFeatures, td.hidden1, td.hidden2, td.outFeatures);
    op.Process(mm1, mm2, mm3, td.layer1, td.layer2, td.layer3);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor mlp_custom_impl_npu(const at::Tensor &x, const at::Tensor &w1, const at::Tensor &b1,
                               const at::Tensor &w2, const at::Tensor &b2, const at::Tensor &w3,
                               const at::Tensor &b3)
{
    at::Tensor result = at::empty({x.size(0), w3.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnMlpCustom, x, w1, b1, w2, b2, w3, b3, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mlp_custom", &mlp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mlp_custom", &mlp_custom_impl_npu, "3-layer MLP (Linear-ReLU-Linear-ReLU-Linear)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super(ModelNew, self).__init__()
        assert len(layer_sizes) == 2, "MlpCustom is built for two hidden layers"
        self.fc1 = torch.nn.Linear(input_size, layer_sizes[0])
        self.fc2 = torch.nn.Linear(layer_sizes[0], layer_sizes[1])
        self.fc3 = torch.nn.Linear(layer_sizes[1], output_size)

    def forward(self, x):
        return custom_ops_lib.mlp_custom(x, self.fc1.weight, self.fc1.bias,
                                         self.fc2.weight, self.fc2.bias,
                                         self.fc3.weight, self.fc3.bias)
'''
