// SPDX-License-Identifier: MIT OR Apache-2.0
// The proving engine on the CPU prover (the CUDA engine: test_engine_gpu.cu): every partition of a
// batch verifies, a bad witness fails alone with its error, several slots and workers give the
// proofs a serial run gives for the same randomness, provers of different types share one engine
// (slots hold them type-erased), the queue's byte limit waits or refuses, a lost device hands its
// work to the other slots (or fails it cleanly), a prover's per-thread states are made once and
// reused, and the trace is JSON whose intervals nest per track.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <latch>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/json.hpp"
#include "engine_test_circuit.hpp"
#include "groth16_curves.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

template <class C>
struct setup {
    using Fr = typename C::fr;
    std::shared_ptr<const r1cs<Fr>> system = std::make_shared<const r1cs<Fr>>(test::chain<Fr>(0).system);
    std::shared_ptr<const proving_key<C>> pk = std::make_shared<const proving_key<C>>(
        test_setup_insecure<C>(*system, 7));
    std::shared_ptr<const prover<C>> cpu = std::make_shared<const prover<C>>(pk, system);

    std::vector<partition<Fr>> partitions(size_t n, bool seeded = false) const {
        std::vector<partition<Fr>> v;
        for (size_t k = 0; k < n; ++k) {
            v.push_back({.z = test::chain<Fr>(k + 2).assignment});
            if (seeded) v.back().insecure_seed = 1000 + k;
        }
        return v;
    }
    bool verifies(size_t k, const proof<C>& pi) const {
        const auto z = test::chain<Fr>(k + 2).assignment;
        return verify(pk->vk, std::span<const Fr>(z.data() + 1, 1), pi);
    }
};

template <class C>
class EngineTest : public ::testing::Test {};
TYPED_TEST_SUITE(EngineTest, test::groth16_curves);

TYPED_TEST(EngineTest, EveryPartitionVerifies) {
    setup<TypeParam> s;
    engine<TypeParam> e({{-1, s.cpu}}, {.workers_per_slot = 2});
    const auto out = e.prove_all(s.partitions(8));
    ASSERT_EQ(out.size(), 8u);
    for (size_t k = 0; k < out.size(); ++k) {
        ASSERT_TRUE(out[k].value) << out[k].message();
        EXPECT_TRUE(s.verifies(k, *out[k].value)) << "partition " << k;
    }
    const engine_progress p = e.progress();
    EXPECT_EQ(p.done, 8u);
    EXPECT_EQ(p.failed, 0u);
    EXPECT_EQ(p.queued, 0u);
    EXPECT_EQ(p.queued_bytes, 0u);
}

TYPED_TEST(EngineTest, ABadWitnessFailsAlone) {
    setup<TypeParam> s;
    engine<TypeParam> e({{-1, s.cpu}}, {.workers_per_slot = 2});
    auto parts = s.partitions(6);
    parts[3].z.back() += TypeParam::fr::one();  // x_40 off: violates x_39^2 = x_40 + 39
    parts[4].z.pop_back();                      // the wrong length
    const auto out = e.prove_all(std::move(parts));
    for (size_t k = 0; k < out.size(); ++k) {
        if (k == 3) {
            EXPECT_FALSE(out[k].value);
            EXPECT_NE(out[k].message().find("violates constraint 39"), std::string::npos) << out[k].message();
        } else if (k == 4) {
            EXPECT_FALSE(out[k].value);
            EXPECT_NE(out[k].message().find("values"), std::string::npos) << out[k].message();
        } else {
            ASSERT_TRUE(out[k].value) << out[k].message();
            EXPECT_TRUE(s.verifies(k, *out[k].value));
        }
    }
    EXPECT_EQ(e.progress().failed, 2u);
    EXPECT_EQ(e.progress().slots[0].failed, 2u);
}

TYPED_TEST(EngineTest, ManyWorkersAgreeWithASerialRun) {
    setup<TypeParam> s;
    const size_t n = 24;
    // Two slots over one prover (as a device listed twice), three workers each.
    engine<TypeParam> e({{0, s.cpu}, {1, s.cpu}}, {.workers_per_slot = 3});
    const auto out = e.prove_all(s.partitions(n, true));
    const auto serial = s.partitions(n, true);
    for (size_t k = 0; k < n; ++k) {
        std::mt19937_64 rng(*serial[k].insecure_seed);
        ASSERT_TRUE(out[k].value) << out[k].message();
        EXPECT_EQ(*out[k].value, s.cpu->prove(std::span<const typename TypeParam::fr>(serial[k].z), rng)) << k;
    }
    const auto trace = e.take_trace();
    EXPECT_EQ(trace.size(), n);
    EXPECT_TRUE(e.take_trace().empty());  // taken
}

/// A prover that waits at a gate, then proves with the CPU prover, or throws `lost` on its
/// device (a stand-in for a sticky CUDA error).
template <class C>
struct test_prover {
    using fr = typename C::fr;
    struct lost : error {
        using error::error;
    };
    std::shared_ptr<const prover<C>> inner;
    bool device_lost = false;
    std::shared_ptr<std::latch> gate;
    mutable std::atomic<int> calls{0};

    template <class Rng>
    proof<C> prove(std::span<const fr> z, Rng& rng, stage_times* t) const {
        ++calls;
        if (gate) gate->wait();
        if (device_lost) throw lost("device fell off the bus");
        return inner->prove(z, rng, t);
    }
    template <class Rng>
    proof<C> prove_from_abc(std::span<const fr> z, std::vector<fr> abc, Rng& rng, stage_times* t) const {
        return inner->prove_from_abc(z, std::move(abc), rng, t);
    }
};

template <class C>
bool is_lost(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const typename test_prover<C>::lost&) {
        return true;
    } catch (...) {
        return false;
    }
}

TYPED_TEST(EngineTest, TheQueueLimitWaitsOrRefuses) {
    using C = TypeParam;
    setup<C> s;
    auto parts = s.partitions(4);
    const size_t bytes = parts[0].bytes();
    auto gated = std::make_shared<test_prover<C>>();
    gated->inner = s.cpu;
    gated->gate = std::make_shared<std::latch>(1);
    {  // fail: two partitions fit (one being proved, one queued), the third is refused
        engine<C> e({{-1, gated}}, {.max_queued_bytes = 2 * bytes, .on_full = engine_options::when_full::fail});
        auto f0 = e.submit(parts[0]);
        auto f1 = e.submit(parts[1]);
        EXPECT_THROW(e.submit(parts[2]), engine_queue_full);
        EXPECT_EQ(e.progress().queued_bytes, 2 * bytes);
        gated->gate->count_down();
        EXPECT_TRUE(s.verifies(0, f0.get()));
        EXPECT_TRUE(s.verifies(1, f1.get()));
        EXPECT_EQ(e.progress().queued_bytes, 0u);
        auto f2 = e.submit(parts[2]);  // room again
        EXPECT_TRUE(s.verifies(2, f2.get()));
    }
    gated->gate = std::make_shared<std::latch>(1);
    {  // wait: the third submit returns only once the first partition is done
        engine<C> e({{-1, gated}}, {.max_queued_bytes = 2 * bytes});
        auto f0 = e.submit(parts[0]);
        auto f1 = e.submit(parts[1]);
        std::atomic<bool> submitted{false};
        std::future<proof<C>> f2;
        std::thread producer([&] {
            f2 = e.submit(parts[2]);
            submitted = true;
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        EXPECT_FALSE(submitted);
        gated->gate->count_down();
        producer.join();
        EXPECT_TRUE(submitted);
        EXPECT_TRUE(s.verifies(0, f0.get()));
        EXPECT_TRUE(s.verifies(1, f1.get()));
        EXPECT_TRUE(s.verifies(2, f2.get()));
    }
    engine<C> e({{-1, gated}}, {.max_queued_bytes = bytes - 1});
    EXPECT_THROW(e.submit(parts[0]), invalid_argument);  // could never fit
}

TYPED_TEST(EngineTest, ALostDeviceHandsItsWorkToTheOthers) {
    using C = TypeParam;
    setup<C> s;
    auto broken = std::make_shared<test_prover<C>>();
    broken->inner = s.cpu;
    broken->device_lost = true;
    auto good = std::make_shared<test_prover<C>>();
    good->inner = s.cpu;
    engine<C> e({{0, broken}, {1, good}, {0, broken}}, {.workers_per_slot = 2, .device_lost = is_lost<C>});
    const auto out = e.prove_all(s.partitions(10));
    for (size_t k = 0; k < out.size(); ++k) {
        ASSERT_TRUE(out[k].value) << k << ": " << out[k].message();
        EXPECT_TRUE(s.verifies(k, *out[k].value));
    }
    const engine_progress p = e.progress();
    EXPECT_EQ(p.done, 10u);
    EXPECT_EQ(p.failed, 0u);
    for (size_t k : {0, 2}) {  // both slots on device 0
        EXPECT_FALSE(p.slots[k].usable);
        EXPECT_NE(p.slots[k].unusable_reason.find("fell off the bus"), std::string::npos);
        EXPECT_EQ(p.slots[k].done, 0u);
    }
    EXPECT_TRUE(p.slots[1].usable);
    EXPECT_EQ(p.slots[1].done, 10u);
    EXPECT_LE(broken->calls.load(), 4);  // at most one partition per worker of device 0
}

TYPED_TEST(EngineTest, WithNoDeviceLeftTheQueueFailsCleanly) {
    using C = TypeParam;
    setup<C> s;
    auto broken = std::make_shared<test_prover<C>>();
    broken->inner = s.cpu;
    broken->device_lost = true;
    broken->gate = std::make_shared<std::latch>(1);  // all five queued before the device is lost
    engine<C> e({{0, broken}}, {.device_lost = is_lost<C>});
    std::vector<std::future<proof<C>>> out;
    for (auto& p : s.partitions(5)) out.push_back(e.submit(std::move(p)));
    broken->gate->count_down();
    for (auto& f : out) {
        try {
            f.get();
            ADD_FAILURE() << "proved on a lost device";
        } catch (const error& x) {
            EXPECT_NE(std::string(x.what()).find("fell off the bus"), std::string::npos) << x.what();
        }
    }
    EXPECT_EQ(e.progress().failed, 5u);
    EXPECT_FALSE(e.progress().slots[0].usable);
    EXPECT_THROW(e.submit(s.partitions(1)[0]), error);
}

TYPED_TEST(EngineTest, SlotsOfDifferentProverTypesShareOneEngine) {
    using C = TypeParam;
    setup<C> s;
    auto wrapped = std::make_shared<test_prover<C>>();
    wrapped->inner = s.cpu;
    engine<C> e({{0, s.cpu}, {1, wrapped}}, {.workers_per_slot = 2});
    EXPECT_EQ(e.slot(0).prover.template get<prover<C>>(), s.cpu.get());
    EXPECT_EQ(e.slot(0).prover.template get<test_prover<C>>(), nullptr);
    EXPECT_EQ(e.slot(1).prover.template get<test_prover<C>>(), wrapped.get());
    EXPECT_EQ(e.slot(1).prover.template get<prover<C>>(), nullptr);
    const auto out = e.prove_all(s.partitions(8));
    for (size_t k = 0; k < out.size(); ++k) {
        ASSERT_TRUE(out[k].value) << k << ": " << out[k].message();
        EXPECT_TRUE(s.verifies(k, *out[k].value)) << k;
    }
    const engine_progress p = e.progress();
    EXPECT_EQ(p.slots[0].done + p.slots[1].done, 8u);
    EXPECT_EQ(size_t(wrapped->calls.load()), p.slots[1].done);
    EXPECT_THROW(engine<C>({{0, any_prover<C>{}}}), invalid_argument);  // a slot without a prover
}

/// A prover with per-thread state (as the CUDA prover's cuda_worker): try_make_worker() makes
/// up to `room` workers (a stand-in for the VRAM budget), each proof records which worker it
/// ran on and fails the test if two run on one worker at once.
template <class C>
struct worker_prover {
    using fr = typename C::fr;
    struct worker {
        std::atomic<bool> busy{false};
        std::atomic<size_t> proofs{0};
    };
    std::shared_ptr<const prover<C>> inner;
    size_t room = 0;
    mutable std::mutex m;
    mutable std::vector<worker*> made;
    mutable std::atomic<size_t> without_worker{0};

    std::unique_ptr<worker> try_make_worker() const {
        std::lock_guard lock(m);
        if (made.size() == room) return nullptr;
        auto w = std::make_unique<worker>();
        made.push_back(w.get());
        return w;
    }
    template <class Rng>
    proof<C> prove(worker& w, std::span<const fr> z, Rng& rng, stage_times* t) const {
        EXPECT_FALSE(w.busy.exchange(true)) << "two proofs on one worker at once";
        proof<C> pi = inner->prove(z, rng, t);
        ++w.proofs;
        w.busy = false;
        return pi;
    }
    template <class Rng>
    proof<C> prove_from_abc(worker& w, std::span<const fr> z, std::vector<fr> abc, Rng& rng, stage_times* t) const {
        ++w.proofs;
        return inner->prove_from_abc(z, std::move(abc), rng, t);
    }
    template <class Rng>
    proof<C> prove(std::span<const fr> z, Rng& rng, stage_times* t) const {
        ++without_worker;
        return inner->prove(z, rng, t);
    }
    template <class Rng>
    proof<C> prove_from_abc(std::span<const fr> z, std::vector<fr> abc, Rng& rng, stage_times* t) const {
        ++without_worker;
        return inner->prove_from_abc(z, std::move(abc), rng, t);
    }
};
static_assert(engine_worker_prover<worker_prover<bn254::curve>, bn254::curve>);
static_assert(!engine_worker_prover<prover<bn254::curve>, bn254::curve>);

// Workers of a prover with per-thread state make each state once and reuse it: never more than
// the workers (over both slots of one prover), never more than its room (the other workers wait
// for one to be given back instead of proving without), none when it has no room at all (then
// every proof runs without one, as the prover alone does).
TYPED_TEST(EngineTest, WorkersReuseTheirProverState) {
    using C = TypeParam;
    setup<C> s;
    for (const size_t room : {size_t(100), size_t(1), size_t(0)}) {
        auto p = std::make_shared<worker_prover<C>>();
        p->inner = s.cpu;
        p->room = room;
        const size_t n = 24;
        {
            engine<C> e({{0, p}, {1, p}}, {.workers_per_slot = 3});
            EXPECT_TRUE(e.slot(0).prover.has_state());
            const auto out = e.prove_all(s.partitions(n, true));
            const auto serial = s.partitions(n, true);
            for (size_t k = 0; k < n; ++k) {
                std::mt19937_64 rng(*serial[k].insecure_seed);
                ASSERT_TRUE(out[k].value) << out[k].message();
                EXPECT_EQ(*out[k].value, s.cpu->prove(std::span<const typename C::fr>(serial[k].z), rng)) << k;
            }
            const engine_progress progress = e.progress();
            EXPECT_EQ(progress.worker_states, p->made.size());
            EXPECT_LE(p->made.size(), std::min<size_t>(room, 6)) << "room " << room;
            if (room > 0) {
                EXPECT_GE(p->made.size(), 1u);
            }
            size_t on_workers = 0;
            for (const auto* w : p->made) on_workers += w->proofs;  // alive: the engine holds them
            EXPECT_EQ(on_workers + p->without_worker, n);
            EXPECT_EQ(p->without_worker.load(), room == 0 ? n : 0u) << "room " << room;
        }
        EXPECT_EQ(p.use_count(), 1) << "the engine's states outlived it";
    }
    EXPECT_FALSE(any_prover<C>(s.cpu).has_state());
    EXPECT_EQ(any_prover<C>(s.cpu).make_state(), nullptr);
}

TEST(EngineRng, SeededIsMt19937AndUnseededIsTheOsGenerator) {
    partition_rng seeded(42);
    std::mt19937_64 reference(42);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(seeded(), reference()) << i;
    partition_rng a, b;  // two OS draws of 64 bits: equal with probability 2^-64
    EXPECT_NE(a(), b());
}

TYPED_TEST(EngineTest, GivenRandomisersAreTheProofsOwn) {
    // r and s drawn by the caller (as the service draws them from the C API's callback, on the
    // calling thread) give the proof that the prover gives when it draws the same r and s itself:
    // here from std::mt19937_64, whose draw the engine also makes for insecure_seed. Both with the
    // prover's own circuit and with a, b, c from the caller.
    using Fr = typename TypeParam::fr;
    setup<TypeParam> s;
    engine<TypeParam> e({{-1, s.cpu}}, {.workers_per_slot = 2});
    const auto serial = s.partitions(4, true);
    auto given = s.partitions(4);
    for (size_t k = 0; k < given.size(); ++k) {
        std::mt19937_64 rng(*serial[k].insecure_seed);
        Fr r, t;
        draw_randomisers(r, t, rng);
        given[k].randomisers = given_randomisers<Fr>{r, t};
        given[k].insecure_seed = 77;  // the given ones take precedence
        stage_timer untimed(nullptr);
        if (k % 2) given[k].abc = evaluate_abc_checked(*s.system, std::span<const Fr>(given[k].z), untimed);
    }
    const auto out = e.prove_all(std::move(given));
    for (size_t k = 0; k < out.size(); ++k) {
        std::mt19937_64 rng(*serial[k].insecure_seed);
        ASSERT_TRUE(out[k].value) << out[k].message();
        EXPECT_EQ(*out[k].value, s.cpu->prove(std::span<const Fr>(serial[k].z), rng)) << k;
        EXPECT_TRUE(s.verifies(k, *out[k].value));
    }
}

TYPED_TEST(EngineTest, OnWorkerStartRunsOnceOnEveryWorkerThread) {
    setup<TypeParam> s;
    std::mutex m;
    std::map<std::pair<size_t, unsigned>, std::thread::id> seen;
    std::atomic<int> calls{0};
    {
        engine<TypeParam> e({{0, s.cpu}, {1, s.cpu}},
                            {.workers_per_slot = 3, .on_worker_start = [&](size_t slot, unsigned worker) {
                                 std::lock_guard lock(m);
                                 seen[{slot, worker}] = std::this_thread::get_id();
                                 ++calls;
                                 if (worker == 1) throw std::runtime_error("ignored");
                             }});
        const auto out = e.prove_all(s.partitions(6));
        for (const auto& o : out) EXPECT_TRUE(o.value) << o.message();
    }
    EXPECT_EQ(calls.load(), 6);
    ASSERT_EQ(seen.size(), 6u);
    std::set<std::thread::id> threads;
    for (const auto& [key, id] : seen) {
        EXPECT_LT(key.first, 2u);
        EXPECT_LT(key.second, 3u);
        EXPECT_NE(id, std::this_thread::get_id());
        threads.insert(id);
    }
    EXPECT_EQ(threads.size(), 6u);
}

TEST(EngineRng, GivenRandomisersAreHandedOverOnce) {
    using Fr = cuzk::bn254::fr;
    const Fr r = Fr::from_u64(5), t = Fr::from_u64(7);
    partition_rng<Fr> rng(std::nullopt, given_randomisers<Fr>{r, t});
    Fr a, b;
    ASSERT_TRUE(rng.take_given(a, b));
    EXPECT_EQ(a, r);
    EXPECT_EQ(b, t);
    EXPECT_FALSE(rng.take_given(a, b));
    partition_rng<Fr> none(std::nullopt, std::nullopt);
    EXPECT_FALSE(none.take_given(a, b));
}

/// Events of one track, (start, end) in microseconds.
using track = std::vector<std::pair<double, double>>;

TYPED_TEST(EngineTest, TheTraceIsJsonAndItsIntervalsNest) {
    setup<TypeParam> s;
    engine<TypeParam> e({{-1, s.cpu}}, {.workers_per_slot = 2});
    auto parts = s.partitions(6);
    parts[2].z.back() += TypeParam::fr::one();
    e.prove_all(std::move(parts));
    const auto traces = e.take_trace();
    ASSERT_EQ(traces.size(), 6u);

    const auto doc = io::json::parse(chrome_trace_json(traces), "trace");
    const io::json::value* events = doc.find("traceEvents");
    ASSERT_TRUE(events && events->is_array());
    std::map<std::pair<std::string, std::string>, track> tracks;
    size_t partitions = 0, failed = 0, names = 0;
    for (const auto& ev : events->items) {
        ASSERT_TRUE(ev.is_object());
        const std::string ph = ev.find("ph")->text;
        if (ph == "M") {
            ++names;
            continue;
        }
        ASSERT_EQ(ph, "X");
        const std::string name = ev.find("name")->text;
        partitions += name.rfind("partition", 0) == 0;
        failed += ev.find("args")->find("error") != nullptr && name.rfind("partition", 0) == 0;
        const double ts = std::stod(ev.find("ts")->text), dur = std::stod(ev.find("dur")->text);
        EXPECT_GE(dur, 0);
        tracks[{ev.find("pid")->text, ev.find("tid")->text}].emplace_back(ts, ts + dur);
    }
    EXPECT_EQ(partitions, 6u);
    EXPECT_EQ(failed, 1u);
    EXPECT_GE(names, 2u);  // the slot and at least one worker named
    EXPECT_LE(tracks.size(), 2u);
    // Per track: each event lies inside the enclosing open one or after it (a stack of nested
    // intervals), up to the writer's rounding to a nanosecond.
    const double eps = 2e-3;
    for (auto& [key, t] : tracks) {
        std::sort(t.begin(), t.end(),
                  [](auto& a, auto& b) { return a.first != b.first ? a.first < b.first : a.second > b.second; });
        std::vector<std::pair<double, double>> open;
        for (const auto& iv : t) {
            while (!open.empty() && iv.first >= open.back().second - eps) open.pop_back();
            if (!open.empty()) {
                EXPECT_LE(iv.second, open.back().second + eps) << "track " << key.first << "/" << key.second;
            }
            open.push_back(iv);
        }
    }

    const trace_summary sum = summarise(traces);
    EXPECT_EQ(sum.done, 5u);
    EXPECT_EQ(sum.failed, 1u);
    EXPECT_GT(sum.wall_ms, 0);
    EXPECT_GT(sum.proofs_per_hour, 0);
    EXPECT_TRUE(sum.gpus.empty());
    double busy = 0;
    for (const auto& w : sum.workers) {
        EXPECT_LE(w.busy_ms, sum.wall_ms + 1e-9);
        busy += w.busy_ms;
    }
    EXPECT_GT(busy, 0);
    EXPECT_NE(format_summary(sum).find("proofs/hour"), std::string::npos);
}

TEST(EngineTrace, GpuBusyIsTheUnionOfStageIntervalsPerDevice) {
    auto stage = [](double a, double b) {
        stage_times::stage s{"MSM", a, b};
        s.gpu_start_ms = a, s.gpu_end_ms = b;
        return s;
    };
    std::vector<partition_trace> t(3);
    t[0] = {.index = 0,
            .slot = 0,
            .device = 0,
            .worker = 0,
            .start_ms = 0,
            .end_ms = 10,
            .ok = true,
            .stages = {stage(1, 4), stage(5, 9)}};
    t[1] = {.index = 1,
            .slot = 0,
            .device = 0,
            .worker = 1,
            .start_ms = 2,
            .end_ms = 12,
            .ok = true,
            .stages = {stage(3, 6), stage(8, 11)}};  // overlaps: union [1, 11] on device 0
    t[2] = {.index = 2,
            .slot = 1,
            .device = 1,
            .worker = 0,
            .start_ms = 0,
            .end_ms = 20,
            .ok = true,
            .stages = {stage(0, 5)}};
    const trace_summary s = summarise(t);
    ASSERT_EQ(s.gpus.size(), 2u);
    EXPECT_DOUBLE_EQ(s.gpus[0].busy_ms, 10);
    EXPECT_DOUBLE_EQ(s.gpus[1].busy_ms, 5);
    EXPECT_DOUBLE_EQ(s.wall_ms, 20);
    EXPECT_EQ(s.workers.size(), 3u);
    EXPECT_NE(chrome_trace_json(t).find("worker 1 GPU stream"), std::string::npos);
}

}  // namespace
