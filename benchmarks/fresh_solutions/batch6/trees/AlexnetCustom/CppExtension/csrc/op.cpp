// pybind binding for AlexnetCustom: convs/pools via aten, classifier via the custom fc kernel
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

static at::Tensor fc(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b, int64_t relu)
{
    at::Tensor xc = x.contiguous();
    at::Tensor wc = w.contiguous();
    at::Tensor y = at::empty({xc.size(0), wc.size(0)}, xc.options());
    EXEC_NPU_CMD(aclnnAlexnetCustom, xc, wc, b, relu, y);
    return y;
}

at::Tensor alexnet_custom_impl_npu(const at::Tensor& x,
    const at::Tensor& c1w, const at::Tensor& c1b, const at::Tensor& c2w, const at::Tensor& c2b,
    const at::Tensor& c3w, const at::Tensor& c3b, const at::Tensor& c4w, const at::Tensor& c4b,
    const at::Tensor& c5w, const at::Tensor& c5b, const at::Tensor& f1w, const at::Tensor& f1b,
    const at::Tensor& f2w, const at::Tensor& f2b, const at::Tensor& f3w, const at::Tensor& f3b)
{
    at::Tensor h = at::relu(at::conv2d(x, c1w, c1b, {4, 4}, {2, 2}));
    h = at::max_pool2d(h, {3, 3}, {2, 2});
    h = at::relu(at::conv2d(h, c2w, c2b, {1, 1}, {2, 2}));
    h = at::max_pool2d(h, {3, 3}, {2, 2});
    h = at::relu(at::conv2d(h, c3w, c3b, {1, 1}, {1, 1}));
    h = at::relu(at::conv2d(h, c4w, c4b, {1, 1}, {1, 1}));
    h = at::relu(at::conv2d(h, c5w, c5b, {1, 1}, {1, 1}));
    h = at::max_pool2d(h, {3, 3}, {2, 2});
    h = at::flatten(h, 1);
    h = fc(h, f1w, f1b, 1);
    h = fc(h, f2w, f2b, 1);
    return fc(h, f3w, f3b, 0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("alexnet_custom", &alexnet_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("alexnet_custom", &alexnet_custom_impl_npu, "AlexNet forward");
}
