#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// One direction of one layer. The input projection for the whole sequence is a
// single big matmul (done here with at::), the sequential recurrence runs in the
// custom kernel.
static void gru_direction(const at::Tensor &inp, const at::Tensor &w_ih, const at::Tensor &w_hh,
                          const at::Tensor &b_ih, const at::Tensor &b_hh, const at::Tensor &h_init,
                          bool reverse, at::Tensor &seq_out, at::Tensor &h_last)
{
    int64_t t_len = inp.size(0);
    int64_t bsz = inp.size(1);
    int64_t hid = w_hh.size(1);
    // gi = x W_ih^T + b_ih : [T, B, 3H]
    at::Tensor gi = at::addmm(b_ih, inp.reshape({t_len * bsz, inp.size(2)}), w_ih.t())
                        .reshape({t_len, bsz, 3 * hid}).contiguous();
    at::Tensor w_hh_t = w_hh.t().contiguous();   // [H, 3H], rows are streamed by the kernel
    at::Tensor h0c = h_init.contiguous();
    seq_out = at::empty({t_len, bsz, hid}, inp.options());
    h_last = at::empty({bsz, hid}, inp.options());
    EXEC_NPU_CMD(aclnnGruBidirectionalHiddenCustom, gi, w_hh_t, b_hh, h0c, reverse, seq_out, h_last);
}

// params follow nn.GRU._flat_weights: per layer, per direction: w_ih, w_hh, b_ih, b_hh
at::Tensor gru_bidirectional_hidden_custom_impl_npu(const at::Tensor &x, const at::Tensor &h0,
                                                    const std::vector<at::Tensor> &params, int64_t num_layers)
{
    TORCH_CHECK((int64_t)params.size() == num_layers * 2 * 4, "unexpected number of GRU parameters");
    at::Tensor layer_in = x.contiguous();
    std::vector<at::Tensor> h_n;
    h_n.reserve(num_layers * 2);
    for (int64_t l = 0; l < num_layers; ++l) {
        at::Tensor outs[2];
        for (int64_t dir = 0; dir < 2; ++dir) {
            size_t p = static_cast<size_t>((l * 2 + dir) * 4);
            at::Tensor h_last;
            gru_direction(layer_in, params[p], params[p + 1], params[p + 2], params[p + 3], h0[l * 2 + dir],
                          dir == 1, outs[dir], h_last);
            h_n.push_back(h_last);
        }
        layer_in = at::cat({outs[0], outs[1]}, 2);
    }
    return at::stack(h_n, 0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gru_bidirectional_hidden_custom", &gru_bidirectional_hidden_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gru_bidirectional_hidden_custom", &gru_bidirectional_hidden_custom_impl_npu,
          "bidirectional multi-layer GRU, returns h_n");
}
