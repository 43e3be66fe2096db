#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Vanilla RNN:  h_t = tanh(W_i2h [x_t ; h_{t-1}] + b),  y_t = W_h2o h_t + b_o
//
// The input projection for all time steps and the output projection are plain
// GEMMs with no sequential dependency, so they go to at::addmm once each.
// The custom kernel runs the sequential part: h_t = tanh(xp_t + W_hh h_{t-1}).
at::Tensor vanilla_rnn_hidden_impl_npu(const at::Tensor& x, const at::Tensor& h0,
                                       const at::Tensor& i2h_weight, const at::Tensor& i2h_bias,
                                       const at::Tensor& h2o_weight, const at::Tensor& h2o_bias)
{
    const int64_t seq = x.size(0);
    const int64_t batch = x.size(1);
    const int64_t in_sz = x.size(2);
    const int64_t hid = i2h_weight.size(0);
    const int64_t out_sz = h2o_weight.size(0);

    at::Tensor w_x = i2h_weight.narrow(1, 0, in_sz);
    at::Tensor w_h = i2h_weight.narrow(1, in_sz, hid);

    // xp[t, b, :] = W_x x_t + b   for every t in one GEMM
    at::Tensor xp = at::addmm(i2h_bias, x.reshape({seq * batch, in_sz}), w_x.t())
                        .view({seq, batch, hid}).contiguous();
    // kernel consumes W_hh^T so that row k is the contribution of h[k]
    at::Tensor wh_t = w_h.t().contiguous();
    at::Tensor h_init = h0.to(x.device()).contiguous();

    at::Tensor hs = at::empty({seq, batch, hid}, x.options());
    EXEC_NPU_CMD(aclnnVanillaRnnHiddenCustom, xp, h_init, wh_t, hs);

    at::Tensor y = at::addmm(h2o_bias, hs.view({seq * batch, hid}), h2o_weight.t());
    return y.view({seq, batch, out_sz});
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("vanilla_rnn_hidden_custom", &vanilla_rnn_hidden_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("vanilla_rnn_hidden_custom", &vanilla_rnn_hidden_impl_npu, "vanilla RNN forward (custom recurrence)");
}
