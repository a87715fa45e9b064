//! The portable kernels: plain loops over slices (which the compiler may
//! still vectorise for the target it builds for). They define the results
//! the SIMD kernels must reproduce, and never read past a slice.

/// `dst = base + Σ adds − Σ subs`, wrapping; `base` is `src`, or `dst` itself.
pub(super) fn update(dst: &mut [i16], src: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]) {
    if let Some(src) = src {
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = s;
        }
    }
    for row in adds {
        for (d, &w) in dst.iter_mut().zip(*row) {
            *d = d.wrapping_add(w);
        }
    }
    for row in subs {
        for (d, &w) in dst.iter_mut().zip(*row) {
            *d = d.wrapping_sub(w);
        }
    }
}

/// The SCReLU dot product, computed as `v · (v · w)` with `v · w` in `i16`
/// (as the SIMD versions do) and the sum wrapping in `i32`. The halves are
/// separate loops so that the compiler can vectorise each.
pub(super) fn output(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
    let (w_us, w_them) = w.split_at(us.len().min(w.len()));
    half(us, w_us, qa).wrapping_add(half(them, w_them, qa))
}

fn half(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    acc.iter().zip(w).fold(0i32, |sum, (&x, &w)| {
        let v = x.clamp(0, qa.max(0));
        sum.wrapping_add(i32::from(v) * i32::from(v.wrapping_mul(w)))
    })
}

/// `Σ a[i] · b[i]`, wrapping in `i32`.
pub(super) fn dot(a: &[i16], b: &[i16]) -> i32 {
    a.iter().zip(b).fold(0i32, |sum, (&x, &y)| {
        sum.wrapping_add(i32::from(x) * i32::from(y))
    })
}
