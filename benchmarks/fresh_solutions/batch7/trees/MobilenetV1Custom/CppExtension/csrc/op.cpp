#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// Depthwise 3x3 conv (pad 1) on NHWC input through the custom kernel.
// x_nhwc: (N, H, W, C), dw_weight: PyTorch layout (C, 1, 3, 3)
at::Tensor mobilenet_v1_custom_impl_npu(const at::Tensor &x_nhwc, const at::Tensor &dw_weight, int64_t stride)
{
    const int64_t n = x_nhwc.size(0);
    const int64_t h = x_nhwc.size(1);
    const int64_t w = x_nhwc.size(2);
    const int64_t c = x_nhwc.size(3);
    const int64_t oh = (h + 2 - 3) / stride + 1;
    const int64_t ow = (w + 2 - 3) / stride + 1;
    at::Tensor xC = x_nhwc.contiguous();
    at::Tensor wTaps = dw_weight.reshape({c, 9}).t().contiguous();   // (9, C)
    at::Tensor y = at::empty({n, oh, ow, c}, x_nhwc.options());
    EXEC_NPU_CMD(aclnnMobilenetV1Custom, xC, wTaps, stride, y);
    return y;
}

// BatchNorm + ReLU on a channels-last tensor (uses the NCHW view so channel is dim 1)
static at::Tensor bn_relu_nhwc(const at::Tensor &y, const std::vector<at::Tensor> &p, size_t i, bool training)
{
    at::Tensor v = y.permute({0, 3, 1, 2});
    at::Tensor out = at::batch_norm(v, p[i], p[i + 1], p[i + 2], p[i + 3], training, 0.1, 1e-5, false);
    return at::relu(out).permute({0, 2, 3, 1}).contiguous();
}

// Full MobileNetV1 forward.
// params layout:
//   [0..4]   stem conv weight, bn weight, bn bias, running_mean, running_var
//   then 13 blocks of 10: dw weight, 4 bn tensors, pw weight, 4 bn tensors
//   last two: fc weight, fc bias
at::Tensor mobilenet_v1_forward_npu(const at::Tensor &x, const std::vector<at::Tensor> &params, bool training)
{
    static const int64_t strides[13] = {1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1};
    TORCH_CHECK(params.size() == 5 + 13 * 10 + 2, "unexpected number of parameters");

    // stem: regular 3x3 conv, stride 2 (only 3 input channels, leave it to the cube via aclnn)
    at::Tensor y = at::conv2d(x, params[0], {}, {2, 2}, {1, 1});
    y = at::batch_norm(y, params[1], params[2], params[3], params[4], training, 0.1, 1e-5, false);
    y = at::relu(y).permute({0, 2, 3, 1}).contiguous();   // NHWC from here on

    size_t p = 5;
    for (int blk = 0; blk < 13; ++blk) {
        y = mobilenet_v1_custom_impl_npu(y, params[p], strides[blk]);
        y = bn_relu_nhwc(y, params, p + 1, training);
        // pointwise 1x1 conv == GEMM over the channel axis in NHWC
        const at::Tensor &pw = params[p + 5];
        at::Tensor pwMat = pw.reshape({pw.size(0), pw.size(1)}).t();
        y = at::matmul(y, pwMat);
        y = bn_relu_nhwc(y, params, p + 6, training);
        p += 10;
    }

    // AvgPool2d(7) on the 7x7 map, then flatten + fc
    at::Tensor pooled = y.mean({1, 2});
    return at::linear(pooled, params[p], params[p + 1]);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mobilenet_v1_custom", &mobilenet_v1_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mobilenet_v1_custom", &mobilenet_v1_custom_impl_npu, "depthwise 3x3 conv, NHWC");
    m.def("mobilenet_v1_forward", &mobilenet_v1_forward_npu, "MobileNetV1 forward with custom depthwise conv");
}
