//! The dense kernels of the forward pass: plain `f32` loops laid out so the
//! compiler vectorises them, compiled twice (baseline SSE2, and AVX2 + FMA
//! picked at run time where the CPU has it).
//!
//! Two layouts of a layer `y = W x + b` (`W` is `[out, in]`):
//! - [`gemv_rows`] keeps `W` row-major and takes one dot product per output
//!   (eight accumulators, so the reduction vectorises without reassociating
//!   one long sum); the policy head uses it to compute only the legal rows.
//! - [`gemv_cols`] takes `W` transposed (`[in, out]`) and adds `x[i]` times
//!   row `i` to `y`: the inner loop is a contiguous `axpy` over the outputs,
//!   and inputs that are exactly zero (half of a ReLU layer) are skipped.
//!
//! `benches/nn.rs` measures both against `matrixmultiply`'s `sgemm`; the
//! trunk uses [`gemv_cols`], the fastest there at every width.

/// Lanes of the accumulators: one AVX register of `f32`.
const LANES: usize = 8;

#[inline(always)]
fn fma<const FUSED: bool>(a: f32, b: f32, c: f32) -> f32 {
    if FUSED {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

#[inline(always)]
fn dot_body<const FUSED: bool>(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; LANES];
    let (a8, a_rest) = a.split_at(a.len() / LANES * LANES);
    let (b8, b_rest) = b.split_at(a8.len());
    for (x, y) in a8.chunks_exact(LANES).zip(b8.chunks_exact(LANES)) {
        for k in 0..LANES {
            acc[k] = fma::<FUSED>(x[k], y[k], acc[k]);
        }
    }
    let mut sum = 0.0;
    for (x, y) in a_rest.iter().zip(b_rest) {
        sum = fma::<FUSED>(*x, *y, sum);
    }
    // Pairwise, so the result does not depend on how the lanes were summed.
    let s4 = [
        acc[0] + acc[4],
        acc[1] + acc[5],
        acc[2] + acc[6],
        acc[3] + acc[7],
    ];
    sum + ((s4[0] + s4[2]) + (s4[1] + s4[3]))
}

#[inline(always)]
fn rows_body<const FUSED: bool>(w: &[f32], x: &[f32], bias: &[f32], y: &mut [f32]) {
    let n = x.len();
    for (o, out) in y.iter_mut().enumerate() {
        *out = bias[o] + dot_body::<FUSED>(&w[o * n..(o + 1) * n], x);
    }
}

#[inline(always)]
fn rows_subset_body<const FUSED: bool>(
    w: &[f32],
    x: &[f32],
    bias: &[f32],
    rows: &[usize],
    y: &mut [f32],
) {
    let n = x.len();
    for (out, &o) in y.iter_mut().zip(rows) {
        *out = bias[o] + dot_body::<FUSED>(&w[o * n..(o + 1) * n], x);
    }
}

#[inline(always)]
fn cols_body<const FUSED: bool>(wt: &[f32], x: &[f32], bias: &[f32], y: &mut [f32]) {
    let m = y.len();
    y.copy_from_slice(bias);
    for (i, &xi) in x.iter().enumerate() {
        if xi == 0.0 {
            continue;
        }
        let row = &wt[i * m..(i + 1) * m];
        for (out, &w) in y.iter_mut().zip(row) {
            *out = fma::<FUSED>(xi, w, *out);
        }
    }
}

/// Whether this CPU runs the AVX2 + FMA versions (checked once per call;
/// the standard library caches the answer).
#[inline]
fn has_avx2_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The kernels this process runs: `"avx2+fma"` on an x86_64 CPU that has
/// both, else `"portable"` (the same code without those instructions).
pub fn active() -> &'static str {
    if has_avx2_fma() {
        "avx2+fma"
    } else {
        "portable"
    }
}

macro_rules! dispatch {
    ($(#[$doc:meta])* $name:ident, $avx:ident, $body:ident, ($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        pub fn $name($($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            if has_avx2_fma() {
                // SAFETY: the CPU was just checked to have AVX2 and FMA.
                return unsafe { $avx($($arg),*) };
            }
            $body::<false>($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn $avx($($arg: $ty),*) {
            $body::<true>($($arg),*)
        }
    };
}

dispatch!(
    /// `y = W x + b` with `w` row-major `[y.len(), x.len()]`.
    gemv_rows, gemv_rows_avx2, rows_body,
    (w: &[f32], x: &[f32], bias: &[f32], y: &mut [f32])
);
dispatch!(
    /// `y[k] = W[rows[k]] . x + b[rows[k]]`: only the listed rows of
    /// `y = W x + b` (`w` row-major, `y.len() == rows.len()`).
    gemv_rows_subset, gemv_rows_subset_avx2, rows_subset_body,
    (w: &[f32], x: &[f32], bias: &[f32], rows: &[usize], y: &mut [f32])
);
dispatch!(
    /// `y = W x + b` with `wt` the transpose of `W`, row-major
    /// `[x.len(), y.len()]`; zero inputs cost nothing.
    gemv_cols, gemv_cols_avx2, cols_body,
    (wt: &[f32], x: &[f32], bias: &[f32], y: &mut [f32])
);

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(w: &[f32], x: &[f32], b: &[f32]) -> Vec<f32> {
        let n = x.len();
        (0..b.len())
            .map(|o| b[o] + (0..n).map(|i| w[o * n + i] * x[i]).sum::<f32>())
            .collect()
    }

    #[test]
    fn layouts_agree_with_the_naive_product() {
        let (n, m) = (37, 13);
        let w: Vec<f32> = (0..n * m)
            .map(|k| ((k * 7919) % 101) as f32 / 50.0 - 1.0)
            .collect();
        let mut x: Vec<f32> = (0..n).map(|k| ((k * 31) % 17) as f32 / 8.0 - 1.0).collect();
        x[3] = 0.0;
        let b: Vec<f32> = (0..m).map(|k| k as f32 / 10.0).collect();
        let want = naive(&w, &x, &b);
        let mut wt = vec![0.0; n * m];
        for o in 0..m {
            for i in 0..n {
                wt[i * m + o] = w[o * n + i];
            }
        }
        let mut y = vec![0.0; m];
        gemv_rows(&w, &x, &b, &mut y);
        for (a, b) in y.iter().zip(&want) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        gemv_cols(&wt, &x, &b, &mut y);
        for (a, b) in y.iter().zip(&want) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        let rows = [12usize, 0, 5];
        let mut sub = [0.0; 3];
        gemv_rows_subset(&w, &x, &b, &rows, &mut sub);
        for (k, &o) in rows.iter().enumerate() {
            assert!((sub[k] - want[o]).abs() < 1e-5);
        }
    }
}
