// binding: MobileNetV1 forward, depthwise convs on the custom op, the rest via aten
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

at::Tensor dw3x3(const at::Tensor &x, const at::Tensor &w, const at::Tensor &sc, const at::Tensor &sh,
                 int64_t stride, bool relu)
{
    at::Tensor xc = x.contiguous();
    at::Tensor wc = w.contiguous().view({w.size(0), 9});
    int64_t ho = (x.size(2) - 1) / stride + 1, wo = (x.size(3) - 1) / stride + 1;
    at::Tensor y = at::empty({x.size(0), x.size(1), ho, wo}, x.options());
    EXEC_NPU_CMD(aclnnMobilenetV1Custom, xc, wc, sc, sh, stride, relu, y);
    return y;
}

static at::Tensor bn_relu(const at::Tensor &x, const at::Tensor *p, bool training)
{
    return at::relu(at::batch_norm(x, p[0], p[1], p[2], p[3], training, 0.1, 1e-5, false));
}

at::Tensor mobilenet_v1_custom_impl_npu(const at::Tensor &x, const std::vector<at::Tensor> &w, bool training)
{
    static const int64_t strides[13] = {1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1};
    at::Tensor y = at::conv2d(x, w[0], {}, {2, 2}, {1, 1});
    y = bn_relu(y, &w[1], training);
    for (int i = 0; i < 13; i++) {
        const at::Tensor *p = &w[5 + i * 10];
        int64_t ch = p[0].size(0);
        if (training) {
            at::Tensor one = at::ones({ch}, y.options());
            at::Tensor zero = at::zeros({ch}, y.options());
            y = dw3x3(y, p[0], one, zero, strides[i], false);
            y = bn_relu(y, &p[1], true);
        } else {
            at::Tensor sc = p[1] * at::rsqrt(p[4] + 1e-5);
            at::Tensor sh = p[2] - p[3] * sc;
            y = dw3x3(y, p[0], sc.contiguous(), sh.contiguous(), strides[i], true);
        }
        y = at::conv2d(y, p[5]);
        y = bn_relu(y, &p[6], training);
    }
    y = at::avg_pool2d(y, 7);
    y = y.view({y.size(0), -1});
    size_t f = 5 + 13 * 10;
    return at::linear(y, w[f], w[f + 1]);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("mobilenet_v1_custom", &mobilenet_v1_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("mobilenet_v1_custom", &mobilenet_v1_custom_impl_npu, "MobileNetV1 forward");
    m.def("dw3x3", &dw3x3, "depthwise 3x3 conv + affine + relu");
}
