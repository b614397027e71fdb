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
//!
//! For several observations at once (the search's leaf batches),
//! [`gemm_cols`] is [`gemv_cols`] register-tiled over 4 batch rows and 16
//! outputs: each weight row is read once per 4 observations, and an input
//! zero in all 4 is skipped. Per output it does the same operations in the
//! same order as [`gemv_cols`], so a batch gives the same bits as one
//! observation at a time. Chosen over `sgemm` by `cargo bench --bench nn --
//! batch` (the trunk alone, base 2-player `needs` inputs, rows per second
//! per thread, on a loaded 2-core AMD EPYC, so within some 20%):
//!
//! | trunk | batch | `gemm_cols` | `sgemm` |
//! |-------|------:|------------:|--------:|
//! | 64x2  | 1     | 477 k       | 50 k    |
//! | 64x2  | 4     | 933 k       | 207 k   |
//! | 64x2  | 16    | 983 k       | 730 k   |
//! | 128x2 | 8     | 557 k       | 199 k   |
//! | 256x2 | 4     | 234 k       | 42 k    |
//! | 256x2 | 16    | 206 k       | 167 k   |
//!
//! `sgemm` packs both operands for every call and cannot skip the zeros of
//! a sparse observation or a ReLU layer; it only catches up near 16 rows.

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

/// Batch rows one tile of [`gemm_cols`] carries (its accumulators are
/// `TILE_ROWS x TILE_OUTS` floats: with 4 x 16 that is eight AVX registers,
/// leaving room for the weights and the broadcast inputs).
pub const TILE_ROWS: usize = 4;
/// Outputs one tile of [`gemm_cols`] carries.
const TILE_OUTS: usize = 16;

/// Packs the inputs of batch rows `b0..b0 + TILE_ROWS` of `x` (`[batch,
/// n]`) as `active[k]` (an input index) and `packed[k * TILE_ROWS..]` (its
/// values in those rows) for the inputs non-zero in some row, in ascending
/// order; returns how many. Branch-free: the zero pattern of a ReLU layer is
/// unpredictable, and a mispredicted branch per input cost about a third of
/// the trunk's time when this was a plain `if`.
#[inline(always)]
fn pack_tile(
    x: &[f32],
    n: usize,
    b0: usize,
    active: &mut Vec<u32>,
    packed: &mut Vec<f32>,
) -> usize {
    // Grown once; every slot read below is written first.
    if active.len() < n {
        active.resize(n, 0);
        packed.resize(n * TILE_ROWS, 0.0);
    }
    let rows: [&[f32]; TILE_ROWS] = std::array::from_fn(|r| &x[(b0 + r) * n..(b0 + r + 1) * n]);
    let mut count = 0;
    for i in 0..n {
        // Non-zero in some row: an OR of the bits without the sign (so
        // -0.0 counts as zero, as in `cols_body`).
        let bits = rows.iter().fold(0u32, |acc, row| acc | row[i].to_bits());
        active[count] = i as u32;
        count += usize::from(bits & 0x7fff_ffff != 0);
    }
    for (k, &i) in active[..count].iter().enumerate() {
        for (r, row) in rows.iter().enumerate() {
            packed[k * TILE_ROWS + r] = row[i as usize];
        }
    }
    count
}

/// One tile: outputs `o0..o0 + W` of the `TILE_ROWS` rows packed in
/// `active`/`packed`, written to `y` rows `b0..b0 + TILE_ROWS`. The accumulation order of
/// each output is that of [`cols_body`]: the bias, then the inputs in
/// ascending order; an input skipped there (zero in that row) is either
/// skipped here too (zero in the whole tile) or adds `0 * w`, which changes
/// nothing but possibly the sign of a zero sum.
#[inline(always)]
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn tile_body<const FUSED: bool, const W: usize>(
    wt: &[f32],
    m: usize,
    o0: usize,
    bias: &[f32],
    active: &[u32],
    packed: &[f32],
    b0: usize,
    y: &mut [f32],
) {
    let mut acc = [[0.0f32; W]; TILE_ROWS];
    for row in acc.iter_mut() {
        row.copy_from_slice(&bias[o0..o0 + W]);
    }
    for (&i, xs) in active.iter().zip(packed.chunks_exact(TILE_ROWS)) {
        let start = i as usize * m + o0;
        // Fixed-size views, so the loops unroll and `acc` stays in registers.
        let w: &[f32; W] = wt[start..start + W].try_into().expect("tile width");
        let xs: &[f32; TILE_ROWS] = xs.try_into().expect("tile rows");
        for r in 0..TILE_ROWS {
            for k in 0..W {
                acc[r][k] = fma::<FUSED>(xs[r], w[k], acc[r][k]);
            }
        }
    }
    for (r, row) in acc.iter().enumerate() {
        let b = b0 + r;
        y[b * m + o0..b * m + o0 + W].copy_from_slice(row);
    }
}

#[inline(always)]
fn gemm_cols_body<const FUSED: bool>(
    wt: &[f32],
    x: &[f32],
    bias: &[f32],
    y: &mut [f32],
    active: &mut Vec<u32>,
    packed: &mut Vec<f32>,
) {
    let m = bias.len();
    let n = wt.len() / m.max(1);
    // An empty layer (no inputs) still has its rows: count them in `y`.
    let batch = x.len().checked_div(n).unwrap_or(y.len() / m.max(1));
    assert_eq!(x.len(), batch * n, "input length");
    assert_eq!(y.len(), batch * m, "output length");
    assert_eq!(wt.len(), n * m, "weight length");
    let tiles = batch / TILE_ROWS * TILE_ROWS;
    for b0 in (0..tiles).step_by(TILE_ROWS) {
        // Packed once per tile and read by every chunk of outputs: the
        // zero test runs once per input, and the inner loop has no branch.
        let count = pack_tile(x, n, b0, active, packed);
        let (act, pk) = (&active[..count], &packed[..count * TILE_ROWS]);
        let full = m / TILE_OUTS * TILE_OUTS;
        for o0 in (0..full).step_by(TILE_OUTS) {
            tile_body::<FUSED, TILE_OUTS>(wt, m, o0, bias, act, pk, b0, y);
        }
        // The last outputs, one at a time (no shipped width needs it).
        for o in full..m {
            tile_body::<FUSED, 1>(wt, m, o, bias, act, pk, b0, y);
        }
    }
    // The rows after the last full tile, one at a time: a tile padded with
    // zero rows would cost a full tile's work (a batch of one ran at 60% of
    // `gemv_cols`'s speed that way).
    for b in tiles..batch {
        cols_body::<FUSED>(wt, &x[b * n..(b + 1) * n], bias, &mut y[b * m..(b + 1) * m]);
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

dispatch!(
    /// The batched [`gemv_cols`]: `y[b] = W x[b] + bias` for every row `b`
    /// of `x` (`[batch, n]`, `n = wt.len() / bias.len()`) into `y`
    /// (`[batch, bias.len()]`), `wt` the transpose of `W` (`[n, m]`).
    /// Each weight row is read once per tile of [`TILE_ROWS`] batch rows
    /// instead of once per row, and an input that is zero in every row of a
    /// tile costs nothing. Every output equals [`gemv_cols`]'s for that row
    /// (same operations in the same order), up to the sign of a zero.
    /// `active` and `packed` are buffers the caller keeps (they grow to
    /// `n` and `TILE_ROWS * n` once). The rows after the last full tile go
    /// through [`gemv_cols`]'s loop.
    gemm_cols, gemm_cols_avx2, gemm_cols_body,
    (wt: &[f32], x: &[f32], bias: &[f32], y: &mut [f32], active: &mut Vec<u32>, packed: &mut Vec<f32>)
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

    #[test]
    fn the_batched_kernel_matches_the_single_one_exactly() {
        // Widths with a partial output chunk and batches with a partial
        // tile; a third of the inputs zero, some zero in a whole tile.
        for (n, m) in [(37, 13), (50, 64), (9, 40)] {
            let wt: Vec<f32> = (0..n * m)
                .map(|k| ((k * 7919) % 101) as f32 / 50.0 - 1.0)
                .collect();
            let bias: Vec<f32> = (0..m).map(|k| k as f32 / 10.0 - 0.5).collect();
            for batch in [1, 3, 4, 8, 17] {
                let x: Vec<f32> = (0..batch * n)
                    .map(|k| {
                        let (b, i) = (k / n, k % n);
                        if i % 3 == 0 || (i % 5 == 1 && b % 2 == 0) {
                            0.0
                        } else {
                            ((k * 31) % 17) as f32 / 8.0 - 1.0
                        }
                    })
                    .collect();
                let mut y = vec![f32::NAN; batch * m];
                let (mut active, mut packed) = (Vec::new(), Vec::new());
                gemm_cols(&wt, &x, &bias, &mut y, &mut active, &mut packed);
                let mut one = vec![0.0; m];
                for b in 0..batch {
                    gemv_cols(&wt, &x[b * n..(b + 1) * n], &bias, &mut one);
                    assert_eq!(
                        &y[b * m..(b + 1) * m],
                        &one[..],
                        "n {n} m {m} batch {batch} row {b}"
                    );
                }
            }
        }
    }
}
