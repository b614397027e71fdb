//! The forward pass: the trunk one observation or a batch at a time, the
//! policy rows of the legal actions only, the value head.

use super::features::InputFeatures;
use super::*;
use crate::game::{Action, GameError};

impl Network {
    /// Buffers for [`Network::evaluate`]; keep one per thread.
    pub fn scratch(&self) -> Scratch {
        let widest = self.hidden.iter().copied().max().unwrap_or(0);
        let input = match self.features {
            InputFeatures::Raw => Vec::new(),
            _ => vec![0.0; self.input_size()],
        };
        Scratch {
            input,
            a: vec![0.0; widest],
            b: vec![0.0; widest],
            rows: Vec::with_capacity(crate::game::MAX_LEGAL_ACTIONS),
        }
    }

    /// Runs the trunk; returns the last hidden layer (in `scratch`).
    pub(super) fn trunk<'s>(&self, obs: &[f32], scratch: &'s mut Scratch) -> &'s [f32] {
        assert_eq!(obs.len(), self.obs_size, "observation length");
        let Scratch { input, a, b, .. } = scratch;
        let (mut cur, mut next) = (a, b);
        let mut src: &[f32] = obs;
        if let InputFeatures::Needs(_) = self.features {
            self.input(obs, input);
            src = input;
        }
        for layer in &self.trunk {
            let out = &mut next[..layer.outputs];
            kernel::gemv_cols(&layer.weight, &src[..layer.inputs], &layer.bias, out);
            for v in out.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(&mut cur, &mut next);
            src = &cur[..layer.outputs];
        }
        let last = self.trunk.last().map_or(0, |l| l.outputs);
        &cur[..last]
    }

    /// Buffers for [`Network::evaluate_legal_batch`] with up to `batch`
    /// observations; keep one per thread.
    pub fn batch_scratch(&self, batch: usize) -> BatchScratch {
        let widest = self.hidden.iter().copied().max().unwrap_or(0);
        let input = match self.features {
            InputFeatures::Raw => Vec::new(),
            _ => vec![0.0; batch * self.input_size()],
        };
        let widest_in = widest.max(self.input_size());
        BatchScratch {
            input,
            a: vec![0.0; batch * widest],
            b: vec![0.0; batch * widest],
            rows: Vec::with_capacity(crate::game::MAX_LEGAL_ACTIONS),
            active: Vec::with_capacity(widest_in),
            packed: Vec::with_capacity(kernel::TILE_ROWS * widest_in),
        }
    }

    /// The batched trunk: the last hidden layer of each of the `batch`
    /// observations of `obs`, row after row (in `scratch`).
    pub(super) fn trunk_batch<'s>(
        &self,
        obs: &[f32],
        batch: usize,
        scratch: &'s mut BatchScratch,
    ) -> &'s [f32] {
        assert_eq!(obs.len(), batch * self.obs_size, "observations length");
        let widest = self.hidden.iter().copied().max().unwrap_or(0);
        let BatchScratch {
            input,
            a,
            b,
            active,
            packed,
            ..
        } = scratch;
        // Grown only when the batch is larger than any before.
        for buf in [&mut *a, &mut *b] {
            if buf.len() < batch * widest {
                buf.resize(batch * widest, 0.0);
            }
        }
        let (mut cur, mut next) = (a, b);
        let mut src: &[f32] = obs;
        let mut width = self.obs_size;
        if let InputFeatures::Needs(_) = self.features {
            let n = self.input_size();
            if input.len() < batch * n {
                input.resize(batch * n, 0.0);
            }
            for (o, row) in obs
                .chunks_exact(self.obs_size)
                .zip(input.chunks_exact_mut(n))
            {
                self.input(o, row);
            }
            src = &input[..batch * n];
            width = n;
        }
        for layer in &self.trunk {
            debug_assert_eq!(width, layer.inputs);
            let out = &mut next[..batch * layer.outputs];
            kernel::gemm_cols(&layer.weight, src, &layer.bias, out, active, packed);
            for v in out.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(&mut cur, &mut next);
            src = &cur[..batch * layer.outputs];
            width = layer.outputs;
        }
        &cur[..batch * width]
    }

    /// [`Network::evaluate_legal`] for a batch of observations in one pass
    /// of the trunk ([`kernel::gemm_cols`], which reads each weight once per
    /// few observations): `obs` holds `batch` observations one after the
    /// other; observation `k`'s legal actions are
    /// `legal[legal_ends[k - 1]..legal_ends[k]]` (`legal_ends[-1]` read as
    /// 0, `legal_ends.len() == batch`), its prior goes to the same range of
    /// `priors` (`priors.len() == legal.len()`, a softmax over its own
    /// legal actions) and its value to `values[k * players..(k + 1) * players]`.
    /// Each result equals `evaluate_legal`'s for that observation. Never
    /// allocates once `scratch` has seen a batch this large. Panics when the
    /// lengths disagree.
    pub fn evaluate_legal_batch(
        &self,
        obs: &[f32],
        legal: &[Action],
        legal_ends: &[usize],
        scratch: &mut BatchScratch,
        priors: &mut [f32],
        values: &mut [f32],
    ) {
        self.evaluate_legal_batch_at(obs, legal, legal_ends, scratch, priors, values, 1.0);
    }

    /// [`Network::evaluate_legal_batch`] with each prior a softmax of the
    /// logits divided by `policy_temperature` (> 0; 1: the plain softmax,
    /// bit for bit).
    #[allow(clippy::too_many_arguments)]
    pub fn evaluate_legal_batch_at(
        &self,
        obs: &[f32],
        legal: &[Action],
        legal_ends: &[usize],
        scratch: &mut BatchScratch,
        priors: &mut [f32],
        values: &mut [f32],
        policy_temperature: f32,
    ) {
        let batch = legal_ends.len();
        assert_eq!(priors.len(), legal.len(), "priors length");
        assert_eq!(values.len(), batch * self.players, "values length");
        assert_eq!(
            legal_ends.last().copied().unwrap_or(0),
            legal.len(),
            "legal ends"
        );
        let mut rows = std::mem::take(&mut scratch.rows);
        let width = self.policy.inputs;
        let h = self.trunk_batch(obs, batch, scratch);
        let mut start = 0;
        for (k, &end) in legal_ends.iter().enumerate() {
            assert!(start <= end, "legal ends must not decrease");
            let hk = &h[k * width..(k + 1) * width];
            rows.clear();
            rows.extend(legal[start..end].iter().map(|a| a.index()));
            let prior = &mut priors[start..end];
            kernel::gemv_rows_subset(&self.policy.weight, hk, &self.policy.bias, &rows, prior);
            softmax_at(prior, policy_temperature);
            self.value_head(hk, &mut values[k * self.players..(k + 1) * self.players]);
            start = end;
        }
        scratch.rows = rows;
    }

    /// The value head's softmax into `value` (`len == players`).
    pub(super) fn value_head(&self, h: &[f32], value: &mut [f32]) {
        kernel::gemv_rows(&self.value.weight, h, &self.value.bias, value);
        softmax(value);
    }

    /// Full evaluation: the policy logits of every action id
    /// (`policy_logits.len() == num_actions`) and the value
    /// (`value.len() == players`, column 0 = the player to move, sums to 1).
    /// Panics when the slice lengths are wrong.
    pub fn evaluate(
        &self,
        obs: &[f32],
        scratch: &mut Scratch,
        policy_logits: &mut [f32],
        value: &mut [f32],
    ) {
        assert_eq!(policy_logits.len(), self.num_actions, "policy length");
        assert_eq!(value.len(), self.players, "value length");
        let h = self.trunk(obs, scratch);
        debug_assert_eq!(h.len(), self.policy.inputs);
        kernel::gemv_rows(&self.policy.weight, h, &self.policy.bias, policy_logits);
        self.value_head(h, value);
    }

    /// What the search needs: the prior over `legal` (softmax of their
    /// logits only, `prior.len() == legal.len()`) and the value as in
    /// [`Network::evaluate`]. Only the legal rows of the policy head are
    /// computed.
    pub fn evaluate_legal(
        &self,
        obs: &[f32],
        scratch: &mut Scratch,
        legal: &[Action],
        prior: &mut [f32],
        value: &mut [f32],
    ) {
        self.evaluate_legal_at(obs, scratch, legal, prior, value, 1.0);
    }

    /// [`Network::evaluate_legal`] with the prior a softmax of the logits
    /// divided by `policy_temperature` (> 0; 1: the plain softmax, bit for
    /// bit). Above 1 the prior is flatter, so the search tries more of the
    /// moves the network ranks second (Leela Chess Zero's policy softmax
    /// temperature).
    pub fn evaluate_legal_at(
        &self,
        obs: &[f32],
        scratch: &mut Scratch,
        legal: &[Action],
        prior: &mut [f32],
        value: &mut [f32],
        policy_temperature: f32,
    ) {
        assert_eq!(prior.len(), legal.len(), "prior length");
        assert_eq!(value.len(), self.players, "value length");
        let mut rows = std::mem::take(&mut scratch.rows);
        rows.clear();
        rows.extend(legal.iter().map(|a| a.index()));
        let h = self.trunk(obs, scratch);
        kernel::gemv_rows_subset(&self.policy.weight, h, &self.policy.bias, &rows, prior);
        self.value_head(h, value);
        softmax_at(prior, policy_temperature);
        scratch.rows = rows;
    }
}

/// Refuses weights with which a forward pass could leave the finite range:
/// for every input with `|x| <= MAX_INPUT`, each pre-activation `y_o = b_o +
/// Σ_k w_ok h_k` is at most `|b_o| + Σ_k |w_ok| m_k` in magnitude, `m_k` the
/// same bound on the layer below (a ReLU does not grow it); every such bound,
/// computed in f64 on the weights as evaluated (normalisation folded in),
/// must be at most [`MAX_ACTIVATION`].
pub(super) fn check_magnitude(
    input_size: usize,
    trunk: &[Dense],
    policy: &Dense,
    value: &Dense,
) -> Result<(), GameError> {
    let refuse = |name: &str, bound: f64| -> Result<(), GameError> {
        if bound <= MAX_ACTIVATION {
            return Ok(());
        }
        Err(bad(format!(
            "network file: the weights are too large: `{name}` can reach {bound:.3e} for inputs \
             within ±{MAX_INPUT} (a network must stay within {MAX_ACTIVATION:e}, docs/network.md)"
        )))
    };
    let mut m = vec![f64::from(MAX_INPUT); input_size];
    for (i, layer) in trunk.iter().enumerate() {
        // Transposed: row `k` holds input k's weights.
        let mut next: Vec<f64> = layer.bias.iter().map(|b| f64::from(b.abs())).collect();
        for (k, row) in layer.weight.chunks_exact(layer.outputs).enumerate() {
            for (n, w) in next.iter_mut().zip(row) {
                *n += f64::from(w.abs()) * m[k];
            }
        }
        refuse(
            &format!("trunk.{i}"),
            next.iter().copied().fold(0.0, f64::max),
        )?;
        m = next;
    }
    for (name, head) in [("policy", policy), ("value", value)] {
        let top = head
            .weight
            .chunks_exact(head.inputs)
            .zip(&head.bias)
            .map(|(row, b)| {
                f64::from(b.abs())
                    + row
                        .iter()
                        .zip(&m)
                        .map(|(w, mk)| f64::from(w.abs()) * mk)
                        .sum::<f64>()
            })
            .fold(0.0, f64::max);
        refuse(name, top)?;
    }
    Ok(())
}

/// In-place softmax of `xs / temperature` (see [`softmax`]); a temperature of
/// 1 is [`softmax`] itself, bit for bit.
fn softmax_at(xs: &mut [f32], temperature: f32) {
    if temperature != 1.0 {
        let inv = 1.0 / temperature;
        for x in xs.iter_mut() {
            *x *= inv;
        }
    }
    softmax(xs);
}

/// In-place softmax (max-shifted; an empty slice stays empty). The result
/// is always finite and sums to 1: a NaN counts as probability 0, and when
/// the largest value is not finite (some `+inf`, or nothing but NaN and
/// `-inf`) the mass is shared equally by the `+inf` entries (by all entries
/// when there is none). A loaded network never gives such logits; this
/// keeps a non-finite value out of the search whatever the input.
pub fn softmax(xs: &mut [f32]) {
    let top = xs
        .iter()
        .copied()
        .filter(|x| !x.is_nan())
        .fold(f32::NEG_INFINITY, f32::max);
    if !top.is_finite() {
        let hit = |x: f32| top != f32::INFINITY || x == f32::INFINITY;
        let n = xs.iter().filter(|&&x| hit(x)).count();
        for x in xs.iter_mut() {
            *x = if hit(*x) { 1.0 / n as f32 } else { 0.0 };
        }
        return;
    }
    let mut sum = 0.0;
    for x in xs.iter_mut() {
        // `top` itself gives 1, so `sum >= 1`.
        *x = if x.is_nan() { 0.0 } else { (*x - top).exp() };
        sum += *x;
    }
    for x in xs.iter_mut() {
        *x /= sum;
    }
}
