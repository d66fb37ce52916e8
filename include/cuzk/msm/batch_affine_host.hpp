// SPDX-License-Identifier: MIT OR Apache-2.0
// Batch-affine bucket accumulation for the host MSM: the bucket sums stay affine and the
// additions of one batch share one field inversion (Montgomery's trick), so a point costs
// about 5M + 1S + (3M + one inversion / batch) instead of the XYZZ mixed addition's 8M + 2S.
// On G2 the trick runs over the denominators' norms in Fp, not in Fp2 (docs/log/2026-12.md,
// "Host batch-affine G2: the trick over the norms": 2^16 G2 MSMs 21-22% faster).
//
//   detail::affine_buckets<G> acc(num_buckets);
//   acc.add(b, P);  ...  acc.finish();          // then acc.fold(): sum_b (b + 1) * bucket_b
//
// A plain sum of many points uses it too: point k into bucket k mod B never conflicts inside a
// batch (batch <= B), then total() adds the B buckets.
//
// add(b, P) puts P into bucket b:
//  - an empty bucket takes P as it is;
//  - otherwise (bucket, P) joins the current batch, unless bucket b is already in it (a bucket
//    changes at most once per batch): then P waits in a queue for the next batch, and when the
//    queue is full it goes into an XYZZ overflow bucket (mixed addition, today's cost), so that
//    scalars that all hit one bucket (all-equal scalars) cost no more than the XYZZ path;
//  - P == bucket is doubled at once (its own inversion), P == -bucket empties the bucket: both
//    need equal x, which distinct random points never have.
// A full batch is applied: den_j = x_P - x_B, batch inversion, lambda = (y_P - y_B) / den_j,
// x' = lambda^2 - x_B - x_P, y' = lambda (x_B - x') - y_B.
// The same scheme as the fastest CPU MSMs (gnark-crypto's batch-affine buckets); written from the
// formulas above. On a CPU with AVX-512 IFMA, groups over a 4-limb field (BN254 G1) apply a batch
// 8 additions at a time (batch_affine_ifma.hpp): the same sums, in the same canonical form.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/msm/batch_affine_ifma.hpp"

namespace cuzk::msm::detail {

/// Batch size: additions that share one inversion. Conflicts (a second point for a bucket already
/// in the batch) grow like batch^2 / (2 * buckets); a quarter of the buckets, at most 1024,
/// keeps them at a few percent while the inversion costs < 1 multiplication per point.
inline size_t affine_batch_size(size_t buckets) { return std::max<size_t>(1, std::min<size_t>(1024, buckets / 4)); }

template <class G>
class affine_buckets {
  public:
    using field = typename G::field;
    /// G2: the batch inversion runs over the denominators' norms, in the base field.
    static constexpr bool over_fp2 = requires(const field& f) { f.c1; };
    using trick_field = typename inversion_field<field>::type;

    /// `vectorised`: the additions run 8 at a time with AVX-512 IFMA where the CPU has it and the
    /// group fits (batch_affine_ifma.hpp); false keeps the scalar code (tests compare the two).
    explicit affine_buckets(size_t buckets, bool vectorised = true)
        : vectorised_(vectorised && uses_ifma()), batch_(affine_batch_size(buckets)), bucket_(buckets), stamp_(buckets, 0), slot_(batch_), den_(batch_),
          prefix_(batch_), norm_(over_fp2 ? batch_ : 0) {
        queue_.reserve(batch_);
        pending_.reserve(batch_);
    }

    /// Empties every bucket (keeps the memory).
    void reset() {
        std::fill(bucket_.begin(), bucket_.end(), affine<G>::identity());
        std::fill(stamp_.begin(), stamp_.end(), 0u);
        for (uint32_t b : overflow_used_) overflow_[b] = xyzz<G>::identity();
        overflow_used_.clear();
        queue_.clear();
        staged_ = 0;
        epoch_ = 1;
    }

    /// A hint that bucket b is added to soon (its sum and stamp are random accesses).
    void prefetch(uint32_t b) const {
        __builtin_prefetch(&bucket_[b]);
        __builtin_prefetch(&stamp_[b]);
    }

    /// bucket[b] += p.
    void add(uint32_t b, const affine<G>& p) {
        place(b, p, true);
        if (staged_ == batch_) flush(true);
    }

    /// Applies what is staged and queued; afterwards the buckets hold the complete sums.
    void finish() {
        flush(true);
        flush(false);  // the queue's leftovers went to the overflow buckets
        flush(false);
    }

    /// Bucket b's sum (after finish()).
    xyzz<G> sum(size_t b) const {
        xyzz<G> r = xyzz<G>::from_affine(bucket_[b]);
        if (!overflow_.empty()) r += overflow_[b];
        return r;
    }

    /// sum_b bucket_b (after finish()).
    xyzz<G> total() const {
        xyzz<G> r = xyzz<G>::identity();
        for (size_t b = 0; b < bucket_.size(); ++b) r += sum(b);
        return r;
    }

    size_t batch_size() const { return batch_; }

    /// Whether this CPU runs group G's additions with IFMA (when not asked otherwise).
    static bool uses_ifma() {
#if CUZK_IFMA
        if constexpr (ifma_batch_fits<G>()) return ifma52::cpu_has_ifma();
#endif
        return false;
    }
    bool vectorised() const { return vectorised_; }

    /// sum_b (b + 1) * bucket_b by running suffix sums (after finish()); with `total`, also
    /// sum_b bucket_b (the last running sum).
    xyzz<G> fold(xyzz<G>* total = nullptr) const {
        xyzz<G> running = xyzz<G>::identity(), acc = xyzz<G>::identity();
        const bool overflow = !overflow_used_.empty();
        for (size_t b = bucket_.size(); b-- > 0;) {
            running += bucket_[b];
            if (overflow) running += overflow_[b];
            acc += running;
        }
        if (total) *total = running;
        return acc;
    }
    size_t size() const { return bucket_.size(); }

  private:
    struct entry {
        uint32_t bucket;
        affine<G> point;
    };

    // Stages (b, p), takes it directly, or defers it: to the queue when `may_queue` and there is
    // room, otherwise to the overflow bucket.
    void place(uint32_t b, const affine<G>& p, bool may_queue) {
        if (p.is_identity()) return;
        affine<G>& q = bucket_[b];
        if (stamp_[b] == epoch_ || staged_ == batch_) {
            if (may_queue && queue_.size() < batch_) {
                queue_.push_back({b, p});
            } else {
                if (overflow_.empty()) overflow_.assign(bucket_.size(), xyzz<G>::identity());
                if (overflow_[b].is_identity()) overflow_used_.push_back(b);
                overflow_[b] += p;
            }
            return;
        }
        if (q.is_identity()) {
            q = p;
            return;
        }
        if (q.x == p.x) {  // p == q or p == -q
            q = q.y == p.y ? doubled(q) : affine<G>::identity();
            return;
        }
        stamp_[b] = epoch_;
        slot_[staged_] = {b, p};
        if (!vectorised_) den_[staged_] = p.x - q.x;  // the IFMA path forms its own from the slots
        ++staged_;
    }

    // Applies the batch, then re-places the queued points against the emptied batch.
    void flush(bool may_queue) {
        apply();
        pending_.swap(queue_);
        queue_.clear();
        for (const entry& e : pending_) place(e.bucket, e.point, may_queue);
        pending_.clear();
        if (staged_ == batch_) flush(may_queue);
    }

    void apply() {
        if (staged_ == 0) return;
#if CUZK_IFMA
        if constexpr (ifma_batch_fits<G>()) {
            if (vectorised_) {
                apply_batch_ifma<G>(bucket_.data(), sizeof(affine<G>), &slot_[0].bucket, &slot_[0].point,
                                    sizeof(entry), staged_, ifma_scratch_);
                staged_ = 0;
                ++epoch_;
                return;
            }
        }
#endif
        if constexpr (over_fp2) {
            // 1/d = conj(d) / N(d): the trick runs over the norms, in Fp (3 Fp products an element
            // instead of 3 Fp2 products, 9 Fp ones; the norm and the conjugate's scaling cost about
            // 3.6 more).
            for (size_t j = 0; j < staged_; ++j) norm_[j] = den_[j].norm();
            invert_all(norm_.data(), prefix_.data(), staged_);
            for (size_t j = 0; j < staged_; ++j) den_[j] = field{den_[j].c0 * norm_[j], -(den_[j].c1 * norm_[j])};
        } else {
            invert_all(den_.data(), prefix_.data(), staged_);
        }
        for (size_t j = 0; j < staged_; ++j) {
            affine<G>& q = bucket_[slot_[j].bucket];
            const affine<G>& p = slot_[j].point;
            const field lambda = (p.y - q.y) * den_[j];
            const field x = lambda.square() - q.x - p.x;
            q.y = lambda * (q.x - x) - q.y;
            q.x = x;
        }
        staged_ = 0;
        ++epoch_;
    }

    // x[0..n) <- 1 / x[j] (all non-zero) by Montgomery's trick: prefix products, one inversion,
    // walk back. One chain of products is bound by the multiplier's latency, so the elements go
    // into 4 interleaved chains (x[j] in chain j % 4) whose products overlap in the pipeline; the
    // inverse of their product gives each chain's.
    template <class F>
    static void invert_all(F* x, F* prefix, size_t n) {
        constexpr size_t chains = 4;
        F acc[chains], inv[chains];
        for (F& a : acc) a = F::one();
        for (size_t j = 0; j < n; ++j) {
            prefix[j] = acc[j % chains];
            acc[j % chains] *= x[j];
        }
        F all = acc[0];
        for (size_t k = 1; k < chains; ++k) all *= acc[k];
        all = all.inverse_vartime();  // public data (MSM timing is value-dependent anyway)
        for (size_t k = 0; k < chains; ++k) {  // 1 / acc[k] = all * (the other chains' products)
            inv[k] = all;
            for (size_t i = 0; i < chains; ++i)
                if (i != k) inv[k] *= acc[i];
        }
        for (size_t j = n; j-- > 0;) {
            const F d = x[j];
            x[j] = inv[j % chains] * prefix[j];
            inv[j % chains] *= d;
        }
    }

    // 2q with its own inversion (rare: needs two equal points in one bucket).
    static affine<G> doubled(const affine<G>& q) {
        if (q.y.is_zero()) return affine<G>::identity();
        const field x2 = q.x.square();
        const field lambda = (x2 + x2 + x2) * (q.y + q.y).inverse_vartime();
        const field x = lambda.square() - q.x - q.x;
        return affine<G>{x, lambda * (q.x - x) - q.y};
    }

    bool vectorised_;
    size_t batch_, staged_ = 0;
    uint32_t epoch_ = 1;
    std::vector<affine<G>> bucket_;
    std::vector<uint32_t> stamp_;  // == epoch_: the bucket is in the current batch
    std::vector<entry> slot_;      // the staged pairs' buckets and points
    std::vector<field> den_;
    std::vector<trick_field> prefix_, norm_;  // the trick's prefix products; G2: the norms
    std::vector<entry> queue_, pending_;
    std::vector<xyzz<G>> overflow_;  // allocated on first use
    std::vector<uint32_t> overflow_used_;
    std::vector<uint64_t> ifma_scratch_;  // the IFMA path's trick rows
};

}  // namespace cuzk::msm::detail
