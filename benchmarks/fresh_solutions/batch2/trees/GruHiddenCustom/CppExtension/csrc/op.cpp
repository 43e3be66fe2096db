#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// One GRU cell update: gi/gh are the precomputed input/hidden projections [B, 3H].
at::Tensor gru_hidden_custom_impl_npu(const at::Tensor& gi, const at::Tensor& gh, const at::Tensor& h)
{
    at::Tensor result = at::empty_like(h);
    EXEC_NPU_CMD(aclnnGruHiddenCustom, gi, gh, h, result);
    return result;
}

// Multi-layer unidirectional GRU returning h_n (seq-first layout, as in the reference).
// The input projection of a whole layer is one big GEMM; the recurrence does one small GEMM
// per step for gh and then the fused gate kernel.
at::Tensor gru_hidden_forward(const at::Tensor& x, const at::Tensor& h0,
                              const std::vector<at::Tensor>& w_ih, const std::vector<at::Tensor>& w_hh,
                              const std::vector<at::Tensor>& b_ih, const std::vector<at::Tensor>& b_hh,
                              bool batch_first)
{
    at::Tensor seq = batch_first ? x.transpose(0, 1) : x;   // [T, B, I]
    const int64_t layers = static_cast<int64_t>(w_ih.size());
    const int64_t steps = seq.size(0);
    const bool has_bias = !b_ih.empty();

    std::vector<at::Tensor> finals;
    finals.reserve(layers);
    for (int64_t l = 0; l < layers; ++l) {
        at::Tensor gi_all = has_bias ? at::linear(seq, w_ih[l], b_ih[l]) : at::linear(seq, w_ih[l]);
        gi_all = gi_all.contiguous();
        at::Tensor h = h0[l].contiguous();
        std::vector<at::Tensor> outs;
        outs.reserve(steps);
        for (int64_t t = 0; t < steps; ++t) {
            at::Tensor gh = has_bias ? at::linear(h, w_hh[l], b_hh[l]) : at::linear(h, w_hh[l]);
            h = gru_hidden_custom_impl_npu(gi_all[t], gh.contiguous(), h);
            outs.push_back(h);
        }
        finals.push_back(h);
        seq = at::stack(outs, 0);   // input to the next layer (dropout = 0)
    }
    return at::stack(finals, 0);    // [num_layers, B, H]
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gru_hidden_custom", &gru_hidden_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gru_hidden_custom", &gru_hidden_custom_impl_npu, "fused GRU gate update");
    m.def("gru_hidden_forward", &gru_hidden_forward, "multi-layer GRU, returns h_n");
}
