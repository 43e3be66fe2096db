project_json_src='''
[
    {
        "op": "GroupNormCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "gamma",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "beta",
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
                "name": "num_groups",
                "param_type": "required",
                "type": "int"
            },
            {
                "name": "eps",
                "param_type": "optional",
                "type": "float",
                "default_value": "1e-5"
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupNormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);     // N * G, total groups
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerBatch); // G
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);    // C / G
  TILING_DATA_FIELD_DEF(uint32_t, spatial);       // H * W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraGroups);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupNormCustom, GroupNormCustomTilingData)
}
"""

host_operator_src="""
#include "group_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192; // floats, 32KB per buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GroupNormCustomTilingData td;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t n = shape.GetDim(0);
    uint32_t c = shape.GetDim(1);
    uint32_t spatial = 1;
    for (size_t i = 2; i < shape.GetDimNum(); ++i) {
        spatial *= shape.GetDim(i);
    }
    auto attrs = context->GetAttrs();
    uint32_t g = static_cast<uint32_t>(*attrs->GetInt(0));
    float eps = *attrs->GetFloat(1);
    if (g == 0 || c % g != 0) {
        return ge::GRAPH_FAILED;
    }

    // tile length: multiple of 64 floats (one repeat), capped by MAX_TILE
    uint32_t tile = spatial < MAX_TILE ? spatial : MAX_TILE;
    tile = (tile + 63) / 64 * 64;

    uint32_t total = n * g;
    auto ascend = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = ascend.GetCoreNumAiv();
    if (cores > total) cores = total;
    if (cores == 0) cores = 1;

    td.set_numGroups(total);
    td.set_groupsPerBatch(g);
    td.set_chPerGroup(c / g);
    td.set_spatial(spatial);
    td.set_tileLen(tile);
    td.set_groupsPerCore(total / cores);
    td.set_extraGroups(total % cores);
    td.set_eps(eps);

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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GroupNormCustom : public OpDef {
public:
    explicit GroupNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupNormCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// GroupNorm, two passes per group:
//   pass 1: stream the group (C/G contiguous channel planes) and accumulate sum / sum of squares
//   pass 2: per channel, y = x * (gamma * rstd) + (beta - mean * gamma * rstd)
class KernelGroupNorm {
public:
    __aicore__ inline KernelGroupNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const GroupNormCustomTilingData& td)
    {
        G = td.groupsPerBatch;
        cpg = td.chPerGroup;
        spatial = td.spatial;
        tileLen = td.tileLen;
        eps = td.eps;
        groupLen = (uint64_t)cpg * spatial;

        uint32_t id = AscendC::GetBlockIdx();
        myGroups = td.groupsPerCore + (id < td.extraGroups ? 1 : 0);
        firstGroup = id * td.groupsPerCore + (id < td.extraGroups ? id : td.extraGroups);

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, G * cpg);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, G * cpg);

        pipe.InitBuffer(inQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLen * sizeof(float));
        pipe.InitBuffer(sqBuf, tileLen * sizeof(float));
        pipe.InitBuffer(workBuf, tileLen * sizeof(float));
        pipe.InitBuffer(redBuf, 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < myGroups; ++i) {
            uint32_t grp = firstGroup + i;
            uint64_t base = (uint64_t)grp * groupLen;

            float mean, rstd;
            Statistics(base, mean, rstd);

            uint32_t chBase = (grp % G) * cpg;
            for (uint32_t c = 0; c < cpg; ++c) {
                float gm = gammaGm.GetValue(chBase + c);
                float bt = betaGm.GetValue(chBase + c);
                float a = gm * rstd;
                float b = bt - mean * a;
                Normalize(base + (uint64_t)c * spatial, a, b);
            }
        }
    }

private:
    __aicore__ inline uint32_t CurLen(uint64_t done, uint64_t total)
    {
        uint64_t left = total - done;
        return left < tileLen ? static_cast<uint32_t>(left) : tileLen;
    }

    __aicore__ inline void LoadTile(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> t = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(t, xGm[off], cp, pad);
        inQ.EnQue(t);
    }

    __aicore__ inline void Statistics(uint64_t base, float& mean, float& rstd)
    {
        AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> red = redBuf.Get<float>();

        float sum = 0.0f;
        float sumSq = 0.0f;
        for (uint64_t done = 0; done < groupLen; done += tileLen) {
            uint32_t len = CurLen(done, groupLen);
            LoadTile(base + done, len);
            AscendC::LocalTensor<float> t = inQ.DeQue<float>();

            AscendC::Mul(sq, t, t, len);
            AscendC::ReduceSum<float>(red, t, work, len);
            AscendC::ReduceSum<float>(red[8], sq, work, len);

            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
            AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
            sum += red.GetValue(0);
            sumSq += red.GetValue(8);
            inQ.FreeTensor(t);
        }
        float inv = 1.0f / static_cast<float>(groupLen);
        mean = sum * inv;
        float var = sumSq * inv - mean * mean;
        if (var < 0.0f) var = 0.0f;

        // rstd = 1 / sqrt(var + eps), computed with vector Sqrt on a 1-element tensor
        red.SetValue(0, var + eps);
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(ev2);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(ev2);
        AscendC::Sqrt(red, red, 8);
        event_t ev3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev3);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev3);
        rstd = 1.0f / red.GetValue(0);
    }

    __aicore__ inline void Normalize(uint64_t base, float a, float b)
    {
        for (uint64_t done = 0; done < spatial; done += tileLen) {
            uint32_t len = CurLen(done, spatial);
            LoadTile(base + done, len);

            AscendC::LocalTensor<float> t = inQ.DeQue<float>();
            AscendC::LocalTensor<float> o = outQ.AllocTensor<float>();
            AscendC::Muls(o, t, a, len);
            AscendC::Adds(o, o, b, len);
            outQ.EnQue(o);
            inQ.FreeTensor(t);

            o = outQ.DeQue<float>();
            AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[base + done], o, cp);
            outQ.FreeTensor(o);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sqBuf, workBuf, redBuf;
    AscendC::GlobalTensor<float> xGm, yGm, gammaGm, betaGm;

    uint32_t G, cpg, spatial, tileLen;
    uint32_t myGroups, firstGroup;
    uint64_t groupLen;
    float eps;
};

extern "C" __global__ __aicore__ void group_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                        GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelGroupNorm op;
    op.Init(x, gamma, beta, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor group_norm_custom_impl_npu(const at::Tensor& x, const at::Tensor& gamma,
                                      const at::Tensor& beta, int64_t num_groups, double eps)
{
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnGroupNormCustom, xc, gamma, beta, num_groups, eps, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("group_norm_custom", &group_norm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("group_norm_custom", &group_norm_custom_impl_npu, "GroupNorm (NPU custom)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(self, num_features: int, num_groups: int):
        super(ModelNew, self).__init__()
        self.gn = torch.nn.GroupNorm(num_groups=num_groups, num_channels=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.group_norm_custom(x, self.gn.weight, self.gn.bias,
                                                self.gn.num_groups, self.gn.eps)
'''
