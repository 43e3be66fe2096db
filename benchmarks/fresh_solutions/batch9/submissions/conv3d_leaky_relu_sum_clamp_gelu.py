project_json_src='''
[
    {
        "op": "LeakyShiftClampGeluCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "channel_shift",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.2"},
            {"name": "clamp_min", "param_type": "optional", "type": "float", "default_value": "-1.0"},
            {"name": "clamp_max", "param_type": "optional", "type": "float", "default_value": "1.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LeakyShiftClampGeluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);      // D*H*W of one (n, c) slice
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tasksTail);
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);       // Erf scratch
  TILING_DATA_FIELD_DEF(float, slope);
  TILING_DATA_FIELD_DEF(float, lo);
  TILING_DATA_FIELD_DEF(float, hi);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyShiftClampGeluCustom, LeakyShiftClampGeluTilingData)
}
"""

host_operator_src="""
#include "leaky_shift_clamp_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;

struct ElemwiseSplit {
    uint32_t tileLen;
    uint32_t tmpBytes;
};

// in/out queues (double-buffered) + one working tensor + Erf scratch (~3 fp32 per element)
ElemwiseSplit SplitForUb(uint64_t ub, uint32_t typeSize, uint32_t planeSize)
{
    ElemwiseSplit r{};
    uint64_t perElem = BUFFER_NUM * 2 * typeSize + typeSize + 3 * sizeof(float);
    uint64_t len = (ub - 8 * 1024) / perElem;
    len = len / 256 * 256;
    if (len > 8192) len = 8192;
    uint64_t planeAligned = (planeSize + 255) / 256 * 256;
    if (len > planeAligned) len = planeAligned;
    if (len == 0) len = 256;
    r.tileLen = static_cast<uint32_t>(len);
    r.tmpBytes = static_cast<uint32_t>(len * 3 * sizeof(float));
    return r;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    LeakyShiftClampGeluTilingData tiling;
    const auto& sh = context->GetInputShape(0)->GetStorageShape();
    if (sh.GetDimNum() < 3) {
        return ge::GRAPH_FAILED;
    }
    uint32_t n = static_cast<uint32_t>(sh.GetDim(0));
    uint32_t c = static_cast<uint32_t>(sh.GetDim(1));
    uint32_t plane = static_cast<uint32_t>(sh.GetShapeSize() / (static_cast<int64_t>(n) * c));
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* slope = attrs->GetAttrPointer<float>(0);
    const float* lo = attrs->GetAttrPointer<float>(1);
    const float* hi = attrs->GetAttrPointer<float>(2);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    ElemwiseSplit split = SplitForUb(ub, typeSize, plane);
    uint32_t tilesPerPlane = (plane + split.tileLen - 1) / split.tileLen;
    uint32_t tasks = n * c * tilesPerPlane;
    if (cores > tasks) cores = tasks;
    if (cores == 0) cores = 1;

    tiling.set_channels(c);
    tiling.set_planeSize(plane);
    tiling.set_tileLen(split.tileLen);
    tiling.set_tilesPerPlane(tilesPerPlane);
    tiling.set_tasksPerCore(tasks / cores);
    tiling.set_tasksTail(tasks % cores);
    tiling.set_tmpBytes(split.tmpBytes);
    tiling.set_slope(slope ? *slope : 0.2f);
    tiling.set_lo(lo ? *lo : -1.0f);
    tiling.set_hi(hi ? *hi : 1.0f);

    context->SetBlockDim(cores);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
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
class LeakyShiftClampGeluCustom : public OpDef {
public:
    explicit LeakyShiftClampGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("channel_shift")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.2f);
        this->Attr("clamp_min").AttrType(OPTIONAL).Float(-1.0f);
        this->Attr("clamp_max").AttrType(OPTIONAL).Float(1.0f);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LeakyShiftClampGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float INV_SQRT2 = 0.70710678118654752f;

struct ShiftGeluArgs {
    uint32_t channels, planeSize, tileLen, tilesPerPlane, tasksPerCore, tasksTail, tmpBytes;
    float slope, lo, hi;
};

// y = gelu_erf(clamp(leaky_relu(x) + shift, lo, hi)); `work` must not alias src/dst.
template <typename T>
__aicore__ inline void ShiftClampGelu(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const LocalTensor<T>& work, const LocalTensor<uint8_t>& tmp,
                                      T shift, const ShiftGeluArgs& a, uint32_t n)
{
    LeakyRelu(dst, src, static_cast<T>(a.slope), n);
    PipeBarrier<PIPE_V>();
    Adds(dst, dst, shift, n);
    PipeBarrier<PIPE_V>();
    Maxs(dst, dst, static_cast<T>(a.lo), n);
    PipeBarrier<PIPE_V>();
    Mins(dst, dst, static_cast<T>(a.hi), n);
    PipeBarrier<PIPE_V>();
    // 0.5 * v * (1 + erf(v / sqrt(2)))
    Muls(work, dst, static_cast<T>(INV_SQRT2), n);
    PipeBarrier<PIPE_V>();
    Erf<T, false>(work, work, tmp, n);
    PipeBarrier<PIPE_V>();
    Adds(work, work, static_cast<T>(1.0f), n);
    PipeBarrier<PIPE_V>();
    Mul(dst, dst, work, n);
    PipeBarrier<PIPE_V>();
    Muls(dst, dst, static_cast<T>(0.5f), n);
}

template <typename T>
class LeakyShiftClampGelu {
public:
    __aicore__ inline LeakyShiftClampGelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR shift, GM_ADDR y, const ShiftGeluArgs& a)
    {
        args = a;
        uint32_t blk = GetBlockIdx();
        taskCnt = a.tasksPerCore + (blk < a.tasksTail ? 1 : 0);
        taskOff = blk * a.tasksPerCore + (blk < a.tasksTail ? blk : a.tasksTail);

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        shiftGm.SetGlobalBuffer((__gm__ T*)shift, a.channels);

        pipe.InitBuffer(inQ, BUFFER_NUM, a.tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, a.tileLen * sizeof(T));
        pipe.InitBuffer(workBuf, a.tileLen * sizeof(T));
        pipe.InitBuffer(erfTmp, a.tmpBytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < taskCnt; ++i) {
            uint32_t task = taskOff + i;
            uint32_t slice = task / args.tilesPerPlane;            // n * C + c
            uint32_t inner = (task % args.tilesPerPlane) * args.tileLen;
            uint32_t len = args.planeSize - inner < args.tileLen ? args.planeSize - inner : args.tileLen;
            uint64_t gOff = (uint64_t)slice * args.planeSize + inner;
            T shift = shiftGm.GetValue(slice % args.channels);
            CopyIn(gOff, len);
            Compute(shift, len);
            CopyOut(gOff, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t off, uint32_t len)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[off], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0}, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(T shift, uint32_t len)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        constexpr uint32_t a = 32 / sizeof(T);
        uint32_t n = (len + a - 1) / a * a;
        ShiftClampGelu(yl, xl, workBuf.Get<T>(), erfTmp.Get<uint8_t>(), shift, args, n);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint64_t off, uint32_t len)
    {
        LocalTensor<T> yl = outQ.DeQue<T>();
        DataCopyPad(yGm[off], yl, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> workBuf, erfTmp;
    GlobalTensor<T> xGm, yGm, shiftGm;
    ShiftGeluArgs args;
    uint32_t taskCnt = 0, taskOff = 0;
};

extern "C" __global__ __aicore__ void leaky_shift_clamp_gelu_custom(GM_ADDR x, GM_ADDR channel_shift, GM_ADDR y,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    ShiftGeluArgs a{td.channels, td.planeSize, td.tileLen, td.tilesPerPlane, td.tasksPerCore, td.tasksTail,
                    td.tmpBytes, td.slope, td.lo, td.hi};
    if (TILING_KEY_IS(1)) {
        LeakyShiftClampGelu<half> op;
        op.Init(x, channel_shift, y, a);
        op.Process();
    } else {
        LeakyShiftClampGelu<float> op;
        op.Init(x, channel_shift, y, a);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor leaky_shift_clamp_gelu_npu(const at::Tensor& x, const at::Tensor& shift,
                                      double negative_slope, double clamp_min, double clamp_max)
{
    at::Tensor xc = x.contiguous();
    at::Tensor sc = shift.reshape({-1}).to(xc.scalar_type()).contiguous();
    TORCH_CHECK(sc.numel() == xc.size(1), "shift must hold one value per channel");
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnLeakyShiftClampGeluCustom, xc, sc, negative_slope, clamp_min, clamp_max, y);
    return y;
}

// conv3d on the stock path, the whole pointwise tail in one custom pass
at::Tensor conv3d_leaky_shift_clamp_gelu_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                             const at::Tensor& sum_tensor)
{
    at::Tensor feat = at::conv3d(x, weight, bias);
    return leaky_shift_clamp_gelu_npu(feat, sum_tensor, 0.2, -1.0, 1.0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("leaky_shift_clamp_gelu_custom", &leaky_shift_clamp_gelu_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("leaky_shift_clamp_gelu_custom", &leaky_shift_clamp_gelu_npu, "gelu(clamp(leaky_relu(x) + shift[c]))",
          pybind11::arg("x"), pybind11::arg("shift"), pybind11::arg("negative_slope") = 0.2,
          pybind11::arg("clamp_min") = -1.0, pybind11::arg("clamp_max") = 1.0);
    m.def("conv3d_leaky_shift_clamp_gelu", &conv3d_leaky_shift_clamp_gelu_npu, "conv3d + fused epilogue");
}
"""
