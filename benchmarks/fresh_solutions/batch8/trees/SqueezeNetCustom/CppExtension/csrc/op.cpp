#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// cat([relu(first), relu(second)], dim=1) in a single pass.
at::Tensor relu_channel_concat_impl_npu(const at::Tensor &first, const at::Tensor &second)
{
    TORCH_CHECK(first.dim() == 4 && second.dim() == 4, "expected NCHW inputs");
    TORCH_CHECK(first.size(0) == second.size(0) && first.size(2) == second.size(2) &&
                first.size(3) == second.size(3), "inputs differ outside the channel dim");
    at::Tensor a = first.contiguous();
    at::Tensor b = second.contiguous();
    at::Tensor out = at::empty({a.size(0), a.size(1) + b.size(1), a.size(2), a.size(3)}, a.options());
    EXEC_NPU_CMD(aclnnReluChannelConcatCustom, a, b, out);
    return out;
}

// One fire block: squeeze 1x1 + ReLU, then the two expand branches whose ReLU and concat are fused.
static at::Tensor fire(const at::Tensor &x, const std::vector<at::Tensor> &p, size_t base)
{
    at::Tensor s = at::relu_(at::conv2d(x, p[base], p[base + 1]));
    at::Tensor e1 = at::conv2d(s, p[base + 2], p[base + 3]);
    at::Tensor e3 = at::conv2d(s, p[base + 4], p[base + 5], {1, 1}, {1, 1});
    return relu_channel_concat_impl_npu(e1, e3);
}

// Full network. `params` in module order:
//   stem conv (w, b), 8 fire blocks x (squeeze w, b, expand1x1 w, b, expand3x3 w, b), classifier conv (w, b)
at::Tensor squeezenet_forward(const at::Tensor &x, const std::vector<at::Tensor> &params)
{
    TORCH_CHECK(params.size() == 2 + 8 * 6 + 2, "unexpected number of parameters");
    at::Tensor h = at::relu_(at::conv2d(x, params[0], params[1], {2, 2}));
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {0, 0}, {1, 1}, true);

    size_t idx = 2;
    for (int i = 0; i < 3; ++i, idx += 6) {
        h = fire(h, params, idx);
    }
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {0, 0}, {1, 1}, true);
    for (int i = 0; i < 4; ++i, idx += 6) {
        h = fire(h, params, idx);
    }
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {0, 0}, {1, 1}, true);
    h = fire(h, params, idx);
    idx += 6;

    // classifier: (dropout p=0) -> 1x1 conv -> ReLU -> global average pool -> flatten
    h = at::relu_(at::conv2d(h, params[idx], params[idx + 1]));
    h = at::adaptive_avg_pool2d(h, {1, 1});
    return at::flatten(h, 1);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("relu_channel_concat_custom", &relu_channel_concat_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("relu_channel_concat_custom", &relu_channel_concat_impl_npu, "cat(relu(a), relu(b)) over channels");
    m.def("squeezenet_forward", &squeezenet_forward, "fire-module classifier forward using the fused expand epilogue");
}
