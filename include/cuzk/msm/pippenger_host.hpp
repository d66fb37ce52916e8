// SPDX-License-Identifier: MIT OR Apache-2.0
// Multi-scalar multiplication on the host: Pippenger's bucket method with signed-digit windows,
// multi-threaded with OpenMP where available (it compiles and runs single-threaded without).
//
//   auto r = cuzk::msm::msm_host<bls12_381::g1>(points, scalars);            // jacobian result
//   auto r = cuzk::msm::msm_host<bls12_381::g1>(points, scalars, {.window_bits = 12});
//
// Work split: the signed digits of every scalar are computed once (parallel over scalars);
// then each task (window w, chunk of points) fills its own 2^(c-1) buckets and folds them
// with the running-sum trick (sum_b b * B_b in 2 * 2^(c-1) additions); window sums are
// combined by Horner's rule (c doublings per window). From host_batch_affine_min_bits up the
// buckets are affine and filled in batches sharing one inversion (batch_affine_host.hpp). Time depends on the scalars
// (`_vartime` in spirit): MSM inputs are public or the caller accepts the leak (DESIGN.md).
// Endomorphism split (host_options::split, scalar_split.hpp): every scalar becomes 2 (or 4) parts
// of ~127 (63) bits against P and its images phi(P) / psi(P)..., made per call into a buffer; the
// window width is chosen for the parts * n points and the part width, so the bucket folds (one
// per window) halve while the point additions stay ~n * bits / c.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "cuzk/core/error.hpp"
#include "cuzk/core/huge_pages.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/msm/batch_affine_host.hpp"
#include "cuzk/msm/scalar_split.hpp"
#include "cuzk/msm/signed_digits.hpp"
#include "cuzk/msm/window_cost.hpp"

namespace cuzk::msm {

/// How the host MSM adds points into its buckets.
enum class host_accumulation {
    automatic,     ///< batch-affine from host_batch_affine_min_bits up, XYZZ below
    xyzz,          ///< XYZZ buckets, one mixed addition (8M + 2S) per point
    batch_affine,  ///< affine buckets, batches sharing one inversion (batch_affine_host.hpp)
};

/// Whether the host MSM splits scalars with the group's endomorphism (scalar_split.hpp): parts * n
/// points with parts-times shorter scalars.
enum class host_split {
    automatic,  ///< where it measured faster (host_split_wins)
    off,        ///< full-width scalars against the points as given
    on,         ///< always (where the group has a split)
};

/// Options of the host MSM. Zero means "choose automatically".
struct host_options {
    /// Window width c in [1, host_max_window_bits]; 0 picks the width that minimises the
    /// addition count for n (host_window_bits).
    unsigned window_bits = 0;
    /// Threads to use; 0 uses OpenMP's default (all cores), 1 runs serially.
    int threads = 0;
    /// How the scalar words are to be read (reduced mod r either way; see signed_digits.hpp).
    scalar_form form = scalar_form::canonical;
    /// Bucket accumulation; batch-affine needs the default Bucket (xyzz<G>) for its fold.
    host_accumulation accumulation = host_accumulation::automatic;
    /// Endomorphism split of the scalars (automatic: off everywhere for now, see host_split_wins).
    host_split split = host_split::automatic;
    /// Parts of a split scalar where the group offers more than one (BLS12-381 G2: 2 or 4); 0 picks
    /// host_split_parts.
    unsigned split_parts = 0;
    /// Scalars equal to one give no digits: the caller adds their points itself (the witness
    /// MSM sums them in batch-affine lanes), so the points need not be copied to leave them out.
    bool skip_ones = false;
    /// Points that carry digits, for the window choice when the caller knows that most scalars
    /// are 0 (or skipped ones); 0 means all of them.
    size_t digit_points = 0;
};

/// Smallest window width for which `automatic` chooses batch-affine buckets: with fewer
/// buckets the batches are short and the inversion is shared by too few additions.
inline constexpr unsigned host_batch_affine_min_bits = 10;

/// Window width in [1, host_max_window_bits] that minimises W(c) * (n + 2^c) additions (n mixed
/// additions per window plus 2 * 2^(c-1) for the bucket fold), for scalars of `scalar_bits` bits.
inline unsigned host_window_bits(size_t n, unsigned scalar_bits) { return choose_window_bits(n, scalar_bits, host_buckets); }

/// Parts of the endomorphism split by default: 2 for every group (BLS12-381 G2 also has 4).
template <class G>
inline constexpr unsigned host_split_parts = 2;

/// Whether `host_split::automatic` splits an MSM of n points of group G: nowhere yet. On the 2-core
/// VM (docs/log/2026-12.md, "Endomorphism split in the host MSM") the split measured -5% .. +8% per
/// MSM from 2^16 to 2^18 (G1 and G2, both curves, 1 and 2 threads) and made a BN254 2^18 CPU proof
/// 2% slower (MSM L +14%, H +6%, A +6%; B G1 -17%, B G2 -1%): the point additions stay ~n * bits / c
/// and only the bucket folds halve, while the wider windows it picks (c = 16 from 2^17) miss the
/// caches more. host_split::on forces it (tests, benchmarks).
template <class G>
constexpr bool host_split_wins(size_t n) {
    (void)n;
    return false;
}

namespace detail {
/// The split decision for these options (the group has a split).
template <class G>
bool use_split(const host_options& opt, size_t n) {
    return opt.split == host_split::on || (opt.split == host_split::automatic && host_split_wins<G>(n));
}

template <class G>
jacobian<G> as_jacobian(const jacobian<G>& p) {
    return p;
}
template <class G>
jacobian<G> as_jacobian(const xyzz<G>& p) {
    return to_jacobian(p);
}

/// Buckets in a projective model (xyzz<G> or jacobian<G>), one mixed addition per point; the same
/// interface as affine_buckets (batch_affine_host.hpp).
template <class G, class Bucket>
class projective_buckets {
  public:
    explicit projective_buckets(size_t buckets) : bucket_(buckets, Bucket::identity()) {}
    void reset() { std::fill(bucket_.begin(), bucket_.end(), Bucket::identity()); }
    void prefetch(uint32_t b) const { __builtin_prefetch(&bucket_[b]); }
    void add(uint32_t b, const affine<G>& p) { bucket_[b] += p; }
    void finish() {}
    size_t size() const { return bucket_.size(); }
    /// sum_b (b + 1) * bucket_b = sum over b of the running suffix sums; with `total`, also
    /// sum_b bucket_b (the last running sum).
    Bucket fold(Bucket* total = nullptr) const {
        Bucket running = Bucket::identity(), acc = Bucket::identity();
        for (size_t b = bucket_.size(); b-- > 0;) {
            running += bucket_[b];
            acc += running;
        }
        if (total) *total = running;
        return acc;
    }

  private:
    std::vector<Bucket> bucket_;
};

/// A per-call array of n uninitialised elements (the digit and image buffers): no serial zeroing,
/// and the huge-page hint (core/huge_pages.hpp): 17 MB of digits for a 2^18 G1 MSM were ~4,000
/// faults, and the split's image buffer as many again (docs/log/2026-12.md, "Endomorphism split in
/// the host MSM").
/// The pages are first touched where the elements are written, by the team.
template <class T>
class host_buffer {
    static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>);

  public:
    explicit host_buffer(size_t n) : data_(n != 0 ? new T[n] : nullptr), size_(n) {
        advise_huge_pages(data_.get(), n * sizeof(T));
    }
    T* data() { return data_.get(); }
    const T* data() const { return data_.get(); }
    T& operator[](size_t i) { return data_[i]; }
    const T& operator[](size_t i) const { return data_[i]; }
    size_t size() const { return size_; }

  private:
    std::unique_ptr<T[]> data_;
    size_t size_;
};

inline int host_threads(int requested) {
#if defined(_OPENMP)
    return requested > 0 ? requested : omp_get_max_threads();
#else
    (void)requested;
    return 1;
#endif
}
}  // namespace detail

namespace detail {
/// One bucket pass of the host MSM: window `window` over the points [lo, hi), into its buckets
/// [blo, bhi) (a pass over a bucket range adds only the digits that fall in it).
struct bucket_task {
    unsigned window;
    size_t lo, hi;
    uint32_t blo, bhi;
};

/// The bucket passes of W windows of B buckets over n points, each window in `chunks` chunks,
/// ordered for a dynamic schedule over `threads`: when the W * chunks passes do not divide among
/// the threads, the last (W * chunks) % threads are each cut into `threads` bucket ranges, so the
/// threads finish together. 17 windows on 2 threads would otherwise leave one thread a whole
/// window alone, and 34 passes on 16 threads two rounds of 16 and one of 2. A range costs a scan
/// of its chunk's digits and no more additions: its fold is over its own buckets (offset by blo
/// times their sum).
inline std::vector<bucket_task> bucket_tasks(size_t n, unsigned W, size_t chunks, size_t B, size_t threads) {
    const size_t chunk_len = (n + chunks - 1) / chunks;
    std::vector<bucket_task> out;
    for (unsigned w = 0; w < W; ++w)
        for (size_t k = 0; k < chunks; ++k) {
            const size_t lo = k * chunk_len, hi = std::min(n, lo + chunk_len);
            if (lo < hi) out.push_back({w, lo, hi, 0, uint32_t(B)});
        }
    const size_t left = threads > 1 ? out.size() % threads : 0;
    if (left == 0) return out;
    const std::vector<bucket_task> cut(out.end() - std::ptrdiff_t(left), out.end());
    out.resize(out.size() - left);
    const size_t range = (B + threads - 1) / threads;
    for (const bucket_task& t : cut)
        for (size_t blo = 0; blo < B; blo += range)
            out.push_back({t.window, t.lo, t.hi, uint32_t(blo), uint32_t(std::min(B, blo + range))});
    return out;
}

/// k * p by doubling and adding (k is a bucket offset: below 2^16).
template <class Bucket>
Bucket times_small(const Bucket& p, uint64_t k) {
    Bucket r = Bucket::identity();
    for (int bit = 63 - std::countl_zero(k | 1); bit >= 0; --bit) {
        r = r.dbl();
        if ((k >> bit) & 1) r += p;
    }
    return r;
}

/// The bucket passes of the host MSM over V = points.size() + images.size() points (point v is
/// points[v] below points.size(), images[v - points.size()] above) with their signed digits,
/// digits[v * W + w] for window w of width c.
template <class G, class Bucket>
jacobian<G> pippenger_digits(std::span<const affine<G>> points, std::span<const affine<G>> images,
                             const host_buffer<int32_t>& digits, unsigned c, unsigned W, const host_options& opt,
                             int threads) {
    const size_t n0 = points.size(), n = n0 + images.size();
    const size_t B = buckets_per_window(c);
    const affine<G>* const img = images.data();
    auto point = [&](size_t v) -> const affine<G>& { return v < n0 ? points[v] : img[v - n0]; };
    // Split each window's points into chunks when there are fewer windows than threads, but
    // keep chunks large against the 2^c bucket fold each chunk costs.
    size_t chunks = std::max<size_t>(1, (size_t(2 * threads) + W - 1) / W);
    chunks = std::min(chunks, std::max<size_t>(1, n / (4 * B)));
    const std::vector<bucket_task> tasks = bucket_tasks(n, W, chunks, B, size_t(threads));
    std::vector<Bucket> partial(tasks.size(), Bucket::identity());

    const bool batch_affine = opt.accumulation == host_accumulation::batch_affine ||
                              (opt.accumulation == host_accumulation::automatic && c >= host_batch_affine_min_bits);
    // One task = (window w, chunk of points): fill a bucket set, fold it into partial[t].
    auto run_tasks = [&]<class Buckets>(std::type_identity<Buckets>) {
#pragma omp parallel num_threads(threads)
        {
            Buckets buckets(B);
            std::optional<Buckets> part;  // a bucket range's, made at its first use
#pragma omp for schedule(dynamic, 1)
            for (long long t = 0; t < (long long)tasks.size(); ++t) {
                const auto [w, lo, hi, blo, bhi] = tasks[size_t(t)];
                const bool whole = blo == 0 && bhi == B;
                if (!whole && (!part || part->size() != bhi - blo)) part.emplace(bhi - blo);
                Buckets& into = whole ? buckets : *part;
                into.reset();
                constexpr size_t ahead = 8;  // points between a bucket's prefetch and its use
                for (size_t i = lo; i < hi; ++i) {
                    if (i + ahead < hi) {
                        const int32_t e = digits[(i + ahead) * W + w];
                        const uint32_t eb = uint32_t((e > 0 ? e : -e) - 1);
                        if (e != 0 && eb - blo < bhi - blo) into.prefetch(eb - blo);
                    }
                    const int32_t d = digits[i * W + w];
                    if (d == 0) continue;
                    const uint32_t b = uint32_t((d > 0 ? d : -d) - 1);
                    if (b - blo >= bhi - blo) continue;  // another range's bucket
                    if (d > 0) into.add(b - blo, point(i));
                    else into.add(b - blo, -point(i));
                }
                into.finish();
                // sum_b (b + 1) S_b over [blo, bhi) = the range's own fold + blo * sum_b S_b.
                Bucket total = Bucket::identity();
                partial[size_t(t)] = into.fold(whole ? nullptr : &total);
                if (blo != 0) partial[size_t(t)] += times_small(total, blo);
            }
        }
    };
    if constexpr (std::is_same_v<Bucket, xyzz<G>>) {
        if (batch_affine) {
            run_tasks(std::type_identity<detail::affine_buckets<G>>{});
        } else {
            run_tasks(std::type_identity<detail::projective_buckets<G, Bucket>>{});
        }
    } else {
        run_tasks(std::type_identity<detail::projective_buckets<G, Bucket>>{});
    }

    // Horner over windows from the top: R = 2^c R + window_w.
    Bucket r = Bucket::identity();
    for (unsigned w = W; w-- > 0;) {
        if (w + 1 != W)
            for (unsigned k = 0; k < c; ++k) r = r.dbl();
        for (size_t t = 0; t < tasks.size(); ++t)
            if (tasks[t].window == w) r += partial[t];
    }
    return as_jacobian(r);
}

/// The scalar whose digits the MSM adds: reduced mod r, and 0 for a one the caller adds itself.
template <class Fr>
typename Fr::integer digit_scalar(const typename Fr::integer& s, const host_options& opt) {
    const typename Fr::integer x = reduce_scalar<Fr>(s, opt.form);
    if (opt.skip_ones && x == Fr::integer::from_u64(1)) return Fr::integer::zero();
    return x;
}

/// msm_host with every scalar split into Parts parts (scalar_split.hpp): Parts * n points (the
/// images Q_j = [E^j]P made here, in a per-call buffer) with part_bits-bit scalars.
template <class G, class Bucket, unsigned Parts>
jacobian<G> msm_host_split(std::span<const affine<G>> points, std::span<const typename G::scalar::integer> scalars,
                           const host_options& opt, int threads) {
    using Fr = typename G::scalar;
    using split = endomorphism_split<G, Parts>;
    const size_t n = points.size(), V = Parts * n;
    const unsigned bits = split::part_bits;
    const size_t m = opt.digit_points != 0 ? std::min(opt.digit_points, n) : n;
    const unsigned c = opt.window_bits != 0 ? opt.window_bits : host_window_bits(Parts * m, bits);
    const unsigned W = num_windows(bits, c);
    host_buffer<int32_t> digits(V * W);
    host_buffer<affine<G>> images((Parts - 1) * n);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long long ii = 0; ii < (long long)n; ++ii) {
        const size_t i = size_t(ii);
        const auto part = split::split(digit_scalar<Fr>(scalars[i], opt));
        for (unsigned j = 0; j < Parts; ++j) {
            signed_digit_walker<Fr::limbs> walk(part[j].magnitude, c);
            int32_t* out = &digits[(j * n + i) * W];
            for (unsigned w = 0; w < W; ++w) {
                const signed_digit d = walk.next();
                out[w] = d.negative != part[j].negative ? -int32_t(d.magnitude) : int32_t(d.magnitude);
            }
        }
        affine<G> q = points[i];
        for (unsigned j = 1; j < Parts; ++j) images[(j - 1) * n + i] = q = split::next(q);
    }
    return pippenger_digits<G, Bucket>(points, std::span<const affine<G>>(images.data(), images.size()), digits, c,
                                       W, opt, threads);
}

}  // namespace detail

/// sum_i scalars[i] * points[i] in group G (any config of ec/group_config.hpp), computed with
/// buckets of type Bucket (xyzz<G>, the default, or jacobian<G>). Points are affine with (0, 0) as the
/// identity; scalars are reduced mod r (see signed_digits.hpp). n = 0 gives the identity.
/// Throws invalid_argument when the spans differ in length or window_bits is out of range.
template <class G, class Bucket = xyzz<G>>
jacobian<G> msm_host(std::span<const affine<G>> points, std::span<const typename G::scalar::integer> scalars,
                     const host_options& opt = {}) {
    using Fr = typename G::scalar;
    using integer = typename Fr::integer;
    if (points.size() != scalars.size())
        throw invalid_argument("msm_host: " + std::to_string(points.size()) + " points but " +
                               std::to_string(scalars.size()) + " scalars");
    if (opt.window_bits > host_max_window_bits)
        throw invalid_argument("msm_host: window_bits " + std::to_string(opt.window_bits) + " exceeds " +
                               std::to_string(host_max_window_bits));
    const size_t n = points.size();
    if (n == 0) return jacobian<G>::identity();

    const int threads = detail::host_threads(opt.threads);
    if constexpr (has_endomorphism_split<G, 2>) {
        if (detail::use_split<G>(opt, n)) {
            const unsigned parts = opt.split_parts != 0 ? opt.split_parts : host_split_parts<G>;
            if constexpr (has_endomorphism_split<G, 4>) {
                if (parts == 4) return detail::msm_host_split<G, Bucket, 4>(points, scalars, opt, threads);
            }
            if (parts != 2)
                throw invalid_argument("msm_host: " + std::string(G::name) + " has no " + std::to_string(parts) +
                                       "-part split");
            return detail::msm_host_split<G, Bucket, 2>(points, scalars, opt, threads);
        }
    }

    const unsigned bits = unsigned(Fr::modulus_bits);
    const size_t m = opt.digit_points != 0 ? std::min(opt.digit_points, n) : n;
    const unsigned c = opt.window_bits != 0 ? opt.window_bits : host_window_bits(m, bits);
    const unsigned W = num_windows(bits, c);

    // Signed digits, scalar-major: digits[i * W + w] = +-magnitude.
    detail::host_buffer<int32_t> digits(n * W);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long long i = 0; i < (long long)n; ++i) {
        integer s = detail::digit_scalar<Fr>(scalars[size_t(i)], opt);
        signed_digit_walker<Fr::limbs> walk(s, c);
        for (unsigned w = 0; w < W; ++w) {
            signed_digit d = walk.next();
            digits[size_t(i) * W + w] = d.negative ? -int32_t(d.magnitude) : int32_t(d.magnitude);
        }
    }
    return detail::pippenger_digits<G, Bucket>(points, {}, digits, c, W, opt, threads);
}

/// Overload for scalars held as field elements (Montgomery form, as mont_field stores them).
template <class G, class Bucket = xyzz<G>>
jacobian<G> msm_host(std::span<const affine<G>> points, std::span<const typename G::scalar> scalars,
                     host_options opt = {}) {
    using integer = typename G::scalar::integer;
    static_assert(sizeof(typename G::scalar) == sizeof(integer), "field element is its Montgomery integer");
    opt.form = scalar_form::montgomery;
    return msm_host<G, Bucket>(points,
                               std::span<const integer>(reinterpret_cast<const integer*>(scalars.data()), scalars.size()),
                               opt);
}

}  // namespace cuzk::msm

/// Explicit instantiation (prefix empty) or its extern declaration (prefix `extern`) of the host
/// MSM for group G with its default buckets: see cuzk/instances.hpp.
#define CUZK_HOST_MSM_INSTANCES(prefix, G)                                                              \
    prefix template ::cuzk::jacobian<G> cuzk::msm::msm_host<G, ::cuzk::xyzz<G>>(                        \
        std::span<const ::cuzk::affine<G>>, std::span<const typename G::scalar::integer>,               \
        const ::cuzk::msm::host_options&);                                                              \
    prefix template ::cuzk::jacobian<G> cuzk::msm::msm_host<G, ::cuzk::xyzz<G>>(                        \
        std::span<const ::cuzk::affine<G>>, std::span<const typename G::scalar>, ::cuzk::msm::host_options);

#if defined(CUZK_HOST_PRECOMPILED)
#include "cuzk/instances.hpp"
CUZK_FOR_EACH_INSTANCE_GROUP(CUZK_HOST_MSM_INSTANCES, extern)
#endif
