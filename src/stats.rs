//! Numbers summarised, for every report that gives a distribution (the
//! simulations' scores, the deal's hands). A leaf: it uses nothing of the
//! crate, so every layer may use it.

/// Linear-interpolated quantile of sorted values.
pub fn quantile(sorted: &[i64], q: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        1 => sorted[0] as f64,
        n => {
            let at = q * (n - 1) as f64;
            let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
            sorted[lo] as f64 + (sorted[hi] - sorted[lo]) as f64 * (at - lo as f64)
        }
    }
}
