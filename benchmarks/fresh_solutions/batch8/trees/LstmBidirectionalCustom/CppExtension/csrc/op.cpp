#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// One fused LSTM cell update from pre-activation gates (B, 4H) and c (B, H).
std::vector<at::Tensor> lstm_pointwise_cell_impl_npu(const at::Tensor &gates, const at::Tensor &c_prev)
{
    TORCH_CHECK(gates.dim() == 2 && c_prev.dim() == 2, "gates (B,4H) and c_prev (B,H) expected");
    TORCH_CHECK(gates.size(1) == 4 * c_prev.size(1), "gates must have 4*H columns");
    at::Tensor g = gates.contiguous();
    at::Tensor c = c_prev.contiguous();
    at::Tensor h_next = at::empty_like(c);
    at::Tensor c_next = at::empty_like(c);
    EXEC_NPU_CMD(aclnnLstmPointwiseCellCustom, g, c, h_next, c_next);
    return {h_next, c_next};
}

// Runs one direction of one layer. Returns the hidden states (B, T, H) if keep_all,
// otherwise only what the caller needs (see below).
static at::Tensor run_direction(const at::Tensor &seq, const at::Tensor &w_ih, const at::Tensor &w_hh,
                                const at::Tensor &b_ih, const at::Tensor &b_hh, at::Tensor h, at::Tensor c,
                                bool reverse, int64_t steps, bool keep_all)
{
    const int64_t T = seq.size(1);
    // Input projection for every time step at once: (B, T, 4H)
    at::Tensor xproj = at::matmul(seq, w_ih.t()) + (b_ih + b_hh);
    at::Tensor whh_t = w_hh.t().contiguous();
    std::vector<at::Tensor> outs;
    if (keep_all) {
        outs.resize(T);
    }
    for (int64_t s = 0; s < steps; ++s) {
        const int64_t t = reverse ? (T - 1 - s) : s;
        at::Tensor gates = at::addmm(xproj.select(1, t), h, whh_t);
        auto hc = lstm_pointwise_cell_impl_npu(gates, c);
        h = hc[0];
        c = hc[1];
        if (keep_all) {
            outs[t] = h;
        }
    }
    return keep_all ? at::stack(outs, 1) : h;
}

// Multi-layer bidirectional LSTM (batch_first) followed by a linear head on the last time step.
// weights: for each layer, forward (w_ih, w_hh, b_ih, b_hh) then reverse (w_ih, w_hh, b_ih, b_hh);
// h0/c0: (num_layers * 2, B, H).
at::Tensor bilstm_last_step_forward(const at::Tensor &x, const at::Tensor &h0, const at::Tensor &c0,
                                    const std::vector<at::Tensor> &weights, const at::Tensor &fc_w,
                                    const at::Tensor &fc_b)
{
    const int64_t layers = h0.size(0) / 2;
    TORCH_CHECK(static_cast<int64_t>(weights.size()) == layers * 8, "expected 8 tensors per layer");
    const int64_t T = x.size(1);
    at::Tensor seq = x;
    at::Tensor head_in;
    for (int64_t l = 0; l < layers; ++l) {
        const auto &wf = weights;
        const size_t base = static_cast<size_t>(l) * 8;
        const bool last = (l == layers - 1);
        if (!last) {
            at::Tensor fwd = run_direction(seq, wf[base], wf[base + 1], wf[base + 2], wf[base + 3],
                                           h0[2 * l], c0[2 * l], false, T, true);
            at::Tensor bwd = run_direction(seq, wf[base + 4], wf[base + 5], wf[base + 6], wf[base + 7],
                                           h0[2 * l + 1], c0[2 * l + 1], true, T, true);
            seq = at::cat({fwd, bwd}, 2);
        } else {
            // Only out[:, -1, :] is consumed: the forward half is its final state, and the
            // reverse half at t = T-1 is the very first reverse step.
            at::Tensor fwd_last = run_direction(seq, wf[base], wf[base + 1], wf[base + 2], wf[base + 3],
                                                h0[2 * l], c0[2 * l], false, T, false);
            at::Tensor bwd_first = run_direction(seq, wf[base + 4], wf[base + 5], wf[base + 6], wf[base + 7],
                                                 h0[2 * l + 1], c0[2 * l + 1], true, 1, false);
            head_in = at::cat({fwd_last, bwd_first}, 1);
        }
    }
    return at::addmm(fc_b, head_in, fc_w.t());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("lstm_pointwise_cell_custom", &lstm_pointwise_cell_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("lstm_pointwise_cell_custom", &lstm_pointwise_cell_impl_npu, "fused LSTM gate activations and state update");
    m.def("bilstm_last_step_forward", &bilstm_last_step_forward, "bidirectional LSTM stack + linear head");
}
