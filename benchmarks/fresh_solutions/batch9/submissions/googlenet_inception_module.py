project_json_src='''
[
    {
        "op": "NeighborhoodMax3x3Custom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NeighborhoodMax3x3TilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTask);   // output rows produced per step
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tasksRemainder);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(NeighborhoodMax3x3Custom, NeighborhoodMax3x3TilingData)
}
"""

host_operator_src="""
#include "neighborhood_max3x3_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t BUFFER_NUM = 2;

class PoolTilingHelper {
public:
    PoolTilingHelper(uint64_t ub, uint32_t typeSize) : ub_(ub), typeSize_(typeSize) {}

    uint32_t RowsPerTask(uint32_t height, uint32_t width) const
    {
        uint32_t alignE = 32 / typeSize_;
        uint64_t rowBytes = static_cast<uint64_t>((width + alignE - 1) / alignE * alignE) * typeSize_;
        // input: 3 shifted copies of (R + 2) rows, double-buffered; output R rows double-buffered;
        // horizontal-max scratch (R + 2) rows
        uint64_t budget = ub_ - 8 * 1024;
        uint64_t r = 1;
        while (true) {
            uint64_t next = r + 1;
            uint64_t need = rowBytes * (BUFFER_NUM * 3 * (next + 2) + BUFFER_NUM * next + (next + 2));
            if (need > budget || next > height || next > 64) break;
            r = next;
        }
        return static_cast<uint32_t>(r);
    }

private:
    uint64_t ub_;
    uint32_t typeSize_;
};
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    NeighborhoodMax3x3TilingData tiling;
    const auto& s = context->GetInputShape(0)->GetStorageShape();
    if (s.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    uint32_t planes = static_cast<uint32_t>(s.GetDim(0) * s.GetDim(1));
    uint32_t h = static_cast<uint32_t>(s.GetDim(2));
    uint32_t w = static_cast<uint32_t>(s.GetDim(3));
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dt == ge::DT_FLOAT16 ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    uint32_t rows = PoolTilingHelper(ub, typeSize).RowsPerTask(h, w);
    uint32_t perPlane = (h + rows - 1) / rows;
    uint32_t tasks = planes * perPlane;
    if (cores > tasks) cores = tasks;
    if (cores == 0) cores = 1;

    tiling.set_planes(planes);
    tiling.set_height(h);
    tiling.set_width(w);
    tiling.set_rowsPerTask(rows);
    tiling.set_tasksPerPlane(perPlane);
    tiling.set_tasksPerCore(tasks / cores);
    tiling.set_tasksRemainder(tasks % cores);

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
class NeighborhoodMax3x3Custom : public OpDef {
public:
    explicit NeighborhoodMax3x3Custom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(NeighborhoodMax3x3Custom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T> __aicore__ inline T LowestValue();
template <> __aicore__ inline float LowestValue<float>() { uint32_t b = 0xFF800000U; return *reinterpret_cast<float*>(&b); }
template <> __aicore__ inline half LowestValue<half>() { uint16_t b = 0xFC00U; return *reinterpret_cast<half*>(&b); }

struct PoolShape {
    uint32_t planes, height, width, rowsPerTask, tasksPerPlane, tasksPerCore, tasksRemainder;
};

// 3x3 / stride 1 / pad 1 max pooling over NCHW planes.
// Horizontal neighbours come from two extra GM loads shifted by one column (edge lane padded
// with -inf by DataCopyPad), so every vector op works on 32B-aligned rows.
template <typename T>
class NeighborhoodMax3x3 {
public:
    __aicore__ inline NeighborhoodMax3x3() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PoolShape& sh)
    {
        shp = sh;
        constexpr uint32_t alignE = 32 / sizeof(T);
        rowPitch = (sh.width + alignE - 1) / alignE * alignE;
        uint32_t core = GetBlockIdx();
        taskNum = sh.tasksPerCore + (core < sh.tasksRemainder ? 1 : 0);
        taskBegin = core * sh.tasksPerCore + (core < sh.tasksRemainder ? core : sh.tasksRemainder);
        uint64_t total = (uint64_t)sh.planes * sh.height * sh.width;
        xGm.SetGlobalBuffer((__gm__ T*)x, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);

        sectionElems = (sh.rowsPerTask + 2) * rowPitch;
        // one queue slot = [left-shifted | centre | right-shifted] sections
        pipe.InitBuffer(inQ, BUFFER_NUM, 3 * sectionElems * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, sh.rowsPerTask * rowPitch * sizeof(T));
        pipe.InitBuffer(hmaxBuf, sectionElems * sizeof(T));
        lowest = LowestValue<T>();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < taskNum; ++t) {
            uint32_t task = taskBegin + t;
            uint32_t plane = task / shp.tasksPerPlane;
            uint32_t r0 = (task % shp.tasksPerPlane) * shp.rowsPerTask;
            uint32_t cnt = shp.height - r0 < shp.rowsPerTask ? shp.height - r0 : shp.rowsPerTask;
            uint32_t lo = r0 == 0 ? 0 : r0 - 1;
            uint32_t hi = r0 + cnt + 1 > shp.height ? shp.height : r0 + cnt + 1;
            LoadRows(plane, lo, hi - lo);
            Reduce(r0, cnt, lo, hi - lo);
            StoreRows(plane, r0, cnt);
        }
    }

private:
    __aicore__ inline void LoadRows(uint32_t plane, uint32_t lo, uint32_t n)
    {
        LocalTensor<T> buf = inQ.AllocTensor<T>();
        uint64_t base = ((uint64_t)plane * shp.height + lo) * shp.width;
        uint32_t w = shp.width;
        uint8_t tailPad = static_cast<uint8_t>(rowPitch - w);

        DataCopyExtParams centre{static_cast<uint16_t>(n), static_cast<uint32_t>(w * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
        DataCopyPad(buf[sectionElems], xGm[base], centre, noPad);

        if (w > 1) {
            // section 0: x[w-1], first lane = -inf
            DataCopyExtParams sh{static_cast<uint16_t>(n), static_cast<uint32_t>((w - 1) * sizeof(T)),
                                 static_cast<uint32_t>(sizeof(T)), 0, 0};
            DataCopyPadExtParams<T> leftPad{true, 1, tailPad, lowest};
            DataCopyPad(buf, xGm[base], sh, leftPad);
            // section 2: x[w+1], last lane = -inf
            DataCopyPadExtParams<T> rightPad{true, 0, static_cast<uint8_t>(tailPad + 1), lowest};
            DataCopyPad(buf[2 * sectionElems], xGm[base + 1], sh, rightPad);
        } else {
            DataCopyPad(buf, xGm[base], centre, noPad);
            DataCopyPad(buf[2 * sectionElems], xGm[base], centre, noPad);
        }
        inQ.EnQue(buf);
    }

    __aicore__ inline void Reduce(uint32_t r0, uint32_t cnt, uint32_t lo, uint32_t n)
    {
        LocalTensor<T> buf = inQ.DeQue<T>();
        LocalTensor<T> out = outQ.AllocTensor<T>();
        LocalTensor<T> hm = hmaxBuf.Get<T>();
        uint32_t len = n * rowPitch;

        Max(hm, buf, buf[sectionElems], len);
        PipeBarrier<PIPE_V>();
        Max(hm, hm, buf[2 * sectionElems], len);
        PipeBarrier<PIPE_V>();

        // vertical window, clamped at plane edges (a duplicated row does not change the max)
        for (uint32_t k = 0; k < cnt; ++k) {
            uint32_t r = r0 + k;
            uint32_t mid = r - lo;
            uint32_t up = r == 0 ? mid : mid - 1;
            uint32_t dn = r + 1 >= shp.height ? mid : mid + 1;
            Max(out[k * rowPitch], hm[up * rowPitch], hm[mid * rowPitch], rowPitch);
            PipeBarrier<PIPE_V>();
            Max(out[k * rowPitch], out[k * rowPitch], hm[dn * rowPitch], rowPitch);
        }
        outQ.EnQue(out);
        inQ.FreeTensor(buf);
    }

    __aicore__ inline void StoreRows(uint32_t plane, uint32_t r0, uint32_t cnt)
    {
        LocalTensor<T> out = outQ.DeQue<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(cnt), static_cast<uint32_t>(shp.width * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[((uint64_t)plane * shp.height + r0) * shp.width], out, cp);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> hmaxBuf;
    GlobalTensor<T> xGm, yGm;
    PoolShape shp;
    uint32_t rowPitch = 0, sectionElems = 0, taskNum = 0, taskBegin = 0;
    T lowest;
};

extern "C" __global__ __aicore__ void neighborhood_max3x3_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    PoolShape sh{td.planes, td.height, td.width, td.rowsPerTask, td.tasksPerPlane, td.tasksPerCore, td.tasksRemainder};
    if (TILING_KEY_IS(1)) {
        NeighborhoodMax3x3<half> op;
        op.Init(x, y, sh);
        op.Process();
    } else {
        NeighborhoodMax3x3<float> op;
        op.Init(x, y, sh);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

at::Tensor neighborhood_max3x3_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnNeighborhoodMax3x3Custom, xc, y);
    return y;
}

// Inception block: convolutions on the stock conv path, the 3x3/s1/p1 max pool is the custom kernel.
at::Tensor inception_block_npu(const at::Tensor& x,
                               const at::Tensor& w1x1, const at::Tensor& b1x1,
                               const at::Tensor& w3red, const at::Tensor& b3red,
                               const at::Tensor& w3x3, const at::Tensor& b3x3,
                               const at::Tensor& w5red, const at::Tensor& b5red,
                               const at::Tensor& w5x5, const at::Tensor& b5x5,
                               const at::Tensor& wproj, const at::Tensor& bproj)
{
    at::Tensor a = at::conv2d(x, w1x1, b1x1);
    at::Tensor b = at::conv2d(at::conv2d(x, w3red, b3red), w3x3, b3x3, {1, 1}, {1, 1});
    at::Tensor c = at::conv2d(at::conv2d(x, w5red, b5red), w5x5, b5x5, {1, 1}, {2, 2});
    at::Tensor d = at::conv2d(neighborhood_max3x3_npu(x), wproj, bproj);
    return at::cat(std::vector<at::Tensor>{a, b, c, d}, 1);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("neighborhood_max3x3_custom", &neighborhood_max3x3_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("neighborhood_max3x3_custom", &neighborhood_max3x3_npu, "max_pool2d k=3 s=1 p=1");
    m.def("inception_block", &inception_block_npu, "GoogLeNet inception module forward");
}
"""
