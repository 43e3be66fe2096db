#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear (+ReLU) on the cube unit through the custom AlexnetCustom op.
at::Tensor alexnet_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                   int64_t apply_relu)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expected 2-D input and weight");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor result = at::empty({x.size(0), weight.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnAlexnetCustom, xc, wc, bc, apply_relu, result);
    return result;
}

// Full AlexNet forward. Convolutions/pooling use the NPU library kernels,
// the three fully connected layers (the bulk of the parameters) use the custom op.
at::Tensor alexnet_forward(const at::Tensor& x, const std::vector<at::Tensor>& conv_w,
                           const std::vector<at::Tensor>& conv_b, const std::vector<at::Tensor>& fc_w,
                           const std::vector<at::Tensor>& fc_b)
{
    TORCH_CHECK(conv_w.size() == 5 && conv_b.size() == 5, "AlexNet has 5 conv layers");
    TORCH_CHECK(fc_w.size() == 3 && fc_b.size() == 3, "AlexNet has 3 fc layers");

    at::Tensor h = at::relu(at::conv2d(x, conv_w[0], conv_b[0], {4, 4}, {2, 2}));
    h = at::max_pool2d(h, {3, 3}, {2, 2});
    h = at::relu(at::conv2d(h, conv_w[1], conv_b[1], {1, 1}, {2, 2}));
    h = at::max_pool2d(h, {3, 3}, {2, 2});
    h = at::relu(at::conv2d(h, conv_w[2], conv_b[2], {1, 1}, {1, 1}));
    h = at::relu(at::conv2d(h, conv_w[3], conv_b[3], {1, 1}, {1, 1}));
    h = at::relu(at::conv2d(h, conv_w[4], conv_b[4], {1, 1}, {1, 1}));
    h = at::max_pool2d(h, {3, 3}, {2, 2});
    h = at::flatten(h, 1);

    h = alexnet_custom_impl_npu(h, fc_w[0], fc_b[0], 1);   // fc1 + relu (dropout p=0)
    h = alexnet_custom_impl_npu(h, fc_w[1], fc_b[1], 1);   // fc2 + relu
    h = alexnet_custom_impl_npu(h, fc_w[2], fc_b[2], 0);   // fc3
    return h;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("alexnet_custom", &alexnet_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("alexnet_custom", &alexnet_custom_impl_npu, "linear + bias (+relu) on cube",
          py::arg("x"), py::arg("weight"), py::arg("bias"), py::arg("apply_relu") = 1);
    m.def("alexnet_forward", &alexnet_forward, "AlexNet forward");
}
