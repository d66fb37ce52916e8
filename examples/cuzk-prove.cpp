// SPDX-License-Identifier: MIT OR Apache-2.0
// cuzk-prove: the example prover.
//
//   cuzk-prove [options]      builds the embedded default circuit (a synthetic BLS12-381
//                             circuit with a 2^12-row domain), runs the INSECURE test setup,
//                             proves through the engine (GPU when present, else CPU; --workers,
//                             --devices), verifies, prints a per-stage timing table and for
//                             --proofs N > 1 the engine's summary (--trace FILE: its Chrome trace);
//                             exits 0 only if every proof verifies (--help).
//   cuzk-prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--backend cpu|gpu] [--stages]
//                             rapidsnark's interface: proves a circom/snarkjs circuit and writes
//                             proof.json and public.json as snarkjs does (bn128 or bls12381,
//                             read from the zkey); --stages prints the per-stage times to stderr;
//                             --copy-key reads the key into memory of its own instead of mapping it.
//   cuzk-prove <circuit.zkey> --out DIR <w1.wtns> [w2.wtns ...]   many witnesses, the key read once
//   cuzk-prove <circuit.zkey> --serve [--out DIR]                 witness paths on stdin, JSON lines out
//                             (examples/zkey_prover.hpp): all three shells over the front door
//                             (service::zkey_prover: the key resident on the CPU or the GPU), batch
//                             and serve with --workers N, reading the next witness while earlier
//                             ones prove; batch's --trace FILE writes the engine's Chrome trace. Every
//                             proof is verified with the key's verifying key before it is written:
//                             a witness that does not satisfy the circuit writes nothing and fails
//                             (exit 1 in the first two modes).
//
// Plain C++ in every build; with CUDA enabled the GPU backend (the engine over the CUDA prover,
// the GPU setup) is cuzk_prove_gpu.cu, linked beside it; the file modes' GPU prover is the front
// door's (cuzk::service).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "cli_version.hpp"
#include "cuzk/groth16/curve.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/synthetic_circuit.hpp"
#include "cuzk/groth16/test_setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson_params.hpp"
#include "cuzk/core/bulk_vector.hpp"
#include "cuzk/io/snarkjs_json.hpp"
#include "cuzk/io/wtns.hpp"
#include "cuzk/io/zkey_groth16.hpp"
#include "cuzk_prove_gpu.hpp"
#include "zkey_prover.hpp"

namespace {

using namespace cuzk::groth16;

struct options {
    std::string curve = "bls12-381";
    unsigned log_size = 12;
    double bit_share = 0.0;
    unsigned proofs = 1;
    unsigned workers = 1;
    uint64_t seed = 1;
    std::string backend = "auto", locking = "split", staging = "prestaged", g2 = "gpu", evaluate = "gpu";
    double vram_gb = 0;  // 0: 90% of the device's memory
    double rerun_vram_gb = 0;  // --rerun-in-vram-gb G: prove again, chunked within G (0: no re-run)
    bool precompute = false;
    unsigned key_chunk_log = 22;  // --key-chunk K: 2^K bases per chunk under --staging chunked
    std::string layout = "auto";  // --layout auto|full|compact: a chunked proof's device scalars
    bool porep = false;
    std::string write_params;  // --write-params FILE: the test key as a bellperson .params file
    std::string trace;         // --trace FILE: the engine's Chrome trace
    std::vector<int> devices{0};
    bool devices_given = false;  // --devices: a GPU option, an error on the CPU backend
};

/// Prints `why` and the usage; to stdout with exit status 0 for --help, else to stderr with 2.
[[noreturn]] void usage(const char* why, bool help = false) {
    std::fprintf(
        help ? stdout : stderr,
        "%s\n"
        "usage: cuzk-prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--backend auto|cpu|gpu] "
        "[--stages] [--copy-key]\n"
        "                               rapidsnark's interface: proves a circom/snarkjs circuit (bn128 or\n"
        "                               bls12381, read from the zkey), verifies the proof, then writes\n"
        "                               proof.json and public.json as snarkjs does; exits 1 and writes\n"
        "                               nothing if the witness does not satisfy the circuit\n"
        "                               (--copy-key: the key copied into memory of its own, not mapped:\n"
        "                               for a key file that may be rewritten in place while proving)\n"
        "       cuzk-prove <circuit.zkey> --out DIR <w1.wtns> [w2.wtns ...] [--backend auto|cpu|gpu]\n"
        "                  [--workers N] [--trace FILE]\n"
        "                               proves every witness with the key read once: DIR/w1.proof.json,\n"
        "                               DIR/w1.public.json, ...; a line each (in witness order) and a summary\n"
        "                               with the throughput; exits 1 if any failed. The key stays resident\n"
        "                               (on the GPU too); N workers prove (default: 1 on the CPU, where one\n"
        "                               proof already uses every core; 2 on the GPU, one uploading while\n"
        "                               one computes) while the next witnesses are read;\n"
        "                               --trace FILE writes its Chrome trace (Perfetto: ui.perfetto.dev)\n"
        "       cuzk-prove <circuit.zkey> --serve [--out DIR] [--backend auto|cpu|gpu] [--workers N]\n"
        "                               keeps the key loaded and reads witness paths from stdin, one per line;\n"
        "                               answers each with a JSON line on stdout (\"ok\", output paths or \"error\"),\n"
        "                               in request order; outputs go to DIR (default: beside the witness)\n"
        "       cuzk-prove [options]    proves the embedded synthetic circuit with INSECURE test keys:\n"
        "  --curve bls12-381|bn254      (default bls12-381)\n"
        "  --log-size K                 proving domain of 2^K rows (default 12)\n"
        "  --witness random|bits        random: all witness values full width (default);\n"
        "                               bits: 90%% of them in {0, 1}, like Filecoin's circuits\n"
        "  --bit-share F                share of bit-valued witness in [0, 1]\n"
        "  --porep                      a Filecoin PoRep-shaped partition (groth16::porep_shape: 97%% bits,\n"
        "                               A/B densities 99.7%%/25.4%%) with a density-compressed key\n"
        "  --write-params FILE          with --porep (bls12-381): also write the INSECURE test key as a\n"
        "                               bellperson .params file (setup on the CPU with bellperson's roots;\n"
        "                               H converted to the monomial basis: minutes from 2^18 on)\n"
        "  --proofs N                   proofs with the resident key (default 1)\n"
        "  --backend auto|cpu|gpu       (default auto: gpu when present)\n"
        "  --lock split|device|none     GPU lock granularity (default split)\n"
        "  --staging prestaged|on-demand|streamed|chunked   (default prestaged; chunked: the key stays\n"
        "                               in page-locked host memory and every MSM streams it to the GPU\n"
        "                               a chunk at a time, for keys larger than the VRAM budget; with\n"
        "                               --g2 gpu only)\n"
        "  --key-chunk K                under --staging chunked: 2^K bases per chunk (default 22)\n"
        "  --layout auto|full|compact   under --staging chunked: a proof's scalars on the GPU; compact\n"
        "                               holds two slots, not a, b, c, z side by side (auto: compact\n"
        "                               when the full layout does not fit the budget; the default)\n"
        "  --g2 gpu|cpu                 where the G2 MSM runs (default gpu)\n"
        "  --evaluate gpu|host          where a, b, c are evaluated on the GPU backend: gpu keeps\n"
        "                               the circuit resident and uploads only the witness (default)\n"
        "  --precompute                 keep shifted copies of the resident key's bases on the GPU\n"
        "                               (fewer MSM additions for ~12x the key's memory)\n"
        "  --workers N                  engine workers per device (per GPU; on the CPU backend, threads\n"
        "                               sharing all cores) proving concurrently (default 1)\n"
        "  --devices LIST               GPUs for the engine, comma-separated, a GPU listed twice gets\n"
        "                               two slots (default 0; GPU backend only, as are the VRAM flags)\n"
        "  --trace FILE                 write the engine's Chrome trace (Perfetto: ui.perfetto.dev)\n"
        "  --vram-gb G                  VRAM budget per device (default: 90%% of the first listed)\n"
        "  --rerun-in-vram-gb G         after the proofs, prove as many again through a second engine\n"
        "                               with --staging chunked --vram-gb G, reusing the circuit and key\n"
        "                               (one setup for a resident and a small-card run: minutes at 2^27)\n"
        "  --seed S                     circuit and setup seed (default 1)\n",
        why);
    std::exit(help ? 0 : 2);
}

options parse(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(("cuzk-prove: missing value after " + std::string(a)).c_str());
            return argv[++i];
        };
        auto number = [&](double lo, double hi) {
            std::string v = value();
            char* end = nullptr;
            double x = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || x < lo || x > hi)
                usage(("cuzk-prove: bad value '" + v + "' for " + std::string(a)).c_str());
            return x;
        };
        auto integer = [&](double lo, double hi) {
            const double x = number(lo, hi);
            if (x != double(uint64_t(x))) usage(("cuzk-prove: " + std::string(a) + " takes a whole number").c_str());
            return x;
        };
        auto one_of = [&](std::initializer_list<const char*> allowed) {
            std::string v = value();
            for (const char* x : allowed)
                if (v == x) return v;
            usage(("cuzk-prove: bad value '" + v + "' for " + std::string(a)).c_str());
        };
        if (a == "--curve") o.curve = one_of({"bls12-381", "bn254"});
        else if (a == "--log-size") o.log_size = unsigned(integer(3, 28));
        else if (a == "--witness") o.bit_share = one_of({"random", "bits"}) == "bits" ? 0.9 : 0.0;
        else if (a == "--bit-share") o.bit_share = number(0, 1);
        else if (a == "--proofs") o.proofs = unsigned(integer(1, 1e6));
        else if (a == "--backend") o.backend = one_of({"auto", "cpu", "gpu"});
        else if (a == "--lock") o.locking = one_of({"split", "device", "none"});
        else if (a == "--staging") o.staging = one_of({"prestaged", "on-demand", "streamed", "chunked"});
        else if (a == "--key-chunk") o.key_chunk_log = unsigned(integer(0, 30));
        else if (a == "--layout") o.layout = one_of({"auto", "full", "compact"});
        else if (a == "--g2") o.g2 = one_of({"gpu", "cpu"});
        else if (a == "--evaluate") o.evaluate = one_of({"gpu", "host"});
        else if (a == "--precompute") o.precompute = true;
        else if (a == "--porep") o.porep = true;
        else if (a == "--write-params") o.write_params = value();
        else if (a == "--workers") o.workers = unsigned(integer(1, 64));
        else if (a == "--trace") o.trace = value();
        else if (a == "--devices") {
            o.devices.clear();
            o.devices_given = true;
            const std::string list = value();
            for (size_t at = 0; at <= list.size();) {
                const size_t comma = std::min(list.find(',', at), list.size());
                const std::string item = list.substr(at, comma - at);
                char* end = nullptr;
                const long d = std::strtol(item.c_str(), &end, 10);
                if (item.empty() || *end != '\0' || d < 0 || d > 1023)
                    usage(("cuzk-prove: bad device '" + item + "' in --devices " + list).c_str());
                o.devices.push_back(int(d));
                at = comma + 1;
            }
        } else if (a == "--vram-gb") o.vram_gb = number(0.001, 1e4);
        else if (a == "--rerun-in-vram-gb") o.rerun_vram_gb = number(0.001, 1e4);
        else if (a == "--seed") o.seed = uint64_t(integer(0, 1e18));
        else if (a == "--help" || a == "-h") usage("cuzk-prove: the example Groth16 prover", true);
        else usage(("cuzk-prove: unknown argument " + std::string(a)).c_str());
    }
    // BN254's Fr has 2-adicity 28 and the test keys' H points live on the 2n-point domain.
    if (o.curve == "bn254" && o.log_size > 27) usage("cuzk-prove: --log-size for bn254 is at most 27");
    if (o.layout != "auto" && o.staging != "chunked") usage("cuzk-prove: --layout needs --staging chunked");
    if (!o.write_params.empty() && (!o.porep || o.curve != "bls12-381"))
        usage("cuzk-prove: --write-params needs --porep on bls12-381 (Filecoin's curve)");
    return o;
}

using cuzk_prove::seconds_since;
using namespace cuzk_prove;  // gpu_settings, make_gpu_engine, ...

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// A partition's copy of the witness, as fast as the producer can make it: the vector is sized
/// with the huge-page hint (one fault per 2 MiB instead of 512), its pages first touched by the
/// team, and filled by every thread. A plain
/// copy took ~330 ms of one thread for a 512 MB witness at 2^24, longer than the GPU's proof, so
/// the engine's workers waited for partitions (docs/log/2026-12.md, "The engine at 2^22 and 2^24").
template <class Fr>
std::vector<Fr> copy_witness(const std::vector<Fr>& z) {
    std::vector<Fr> out;
    cuzk::io::resize_for_bulk_read(out, z.size(), 0, cuzk::io::first_touch::team);
    const auto n = static_cast<std::ptrdiff_t>(z.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) out[i] = z[i];
    return out;
}

/// Proves o.proofs partitions of the circuit's witness through the engine (a, b, c evaluated
/// by the producer on the host when `evaluate_on_host`, overlapping the proofs), verifies each,
/// prints the median per stage and, for several proofs, the engine's summary; writes the trace
/// for --trace. Returns true if all verified. One per curve: the engine is the same type for every
/// backend and configuration.
template <class Curve>
bool run_engine(const options& o, const proving_key<Curve>& pk, const circuit<typename Curve::fr>& ckt,
                engine<Curve>& e, bool evaluate_on_host) {
    using Fr = typename Curve::fr;
    unsigned produced = 0;
    const auto out = e.prove_stream([&]() -> std::optional<partition<Fr>> {
        if (produced == o.proofs) return std::nullopt;
        partition<Fr> p{.z = copy_witness(ckt.assignment)};
        if (evaluate_on_host) {
            stage_timer untimed(nullptr);
            p.abc = evaluate_abc_checked(ckt.system, std::span<const Fr>(p.z), untimed);
        }
        if (o.proofs >= 10) std::printf("  ... partition %u/%u queued\r", ++produced, o.proofs), std::fflush(stdout);
        else ++produced;
        return p;
    });
    const std::vector<partition_trace> traces = e.take_trace();

    unsigned valid = 0, failed = 0;
    std::vector<double> verify_ms;
    for (const auto& r : out) {
        if (!r.value) {
            std::printf("\n  proof FAILED: %s\n", r.message().c_str());
            ++failed;
            continue;
        }
        const auto tv = std::chrono::steady_clock::now();
        valid += verify(pk.vk, ckt.public_inputs(), *r.value);
        verify_ms.push_back(1e3 * seconds_since(tv));
    }
    std::vector<std::string> names;
    std::map<std::string, std::vector<double>> host, gpu;
    std::vector<double> totals;
    for (const auto& t : traces) {
        for (const auto& st : t.stages) {
            if (!host.count(st.name)) names.push_back(st.name);
            host[st.name].push_back(st.ms());
            if (st.on_gpu()) gpu[st.name].push_back(st.gpu_end_ms - st.gpu_start_ms);
        }
        totals.push_back(t.end_ms - t.start_ms);
    }
    std::printf("\n  %-28s %12s %12s\n", "stage (median of proofs)", "ms", "GPU ms");
    for (const auto& n : names) {
        std::printf("  %-28s %12.2f", n.c_str(), median(host[n]));
        if (gpu.count(n)) std::printf(" %12.2f", median(gpu[n]));
        std::printf("\n");
    }
    const trace_summary sum = summarise(traces);
    std::printf("  %-28s %12.2f\n  %-28s %12.2f\n", "prove (one proof)", median(totals), "verify", median(verify_ms));
    std::printf("  %-28s %12.2f  (%u proofs, %zu slot%s x %u worker%s)\n", "throughput: ms per proof",
                sum.wall_ms / o.proofs, o.proofs, e.slots(), e.slots() == 1 ? "" : "s", o.workers,
                o.workers == 1 ? "" : "s");
    if (o.proofs > 1) std::printf("%s", format_summary(sum).c_str());
    if (!o.trace.empty()) {
        cuzk::io::write_text_file(o.trace, chrome_trace_json(traces));
        std::printf("  trace: %s (%zu partitions)\n", o.trace.c_str(), traces.size());
    }
    // A partition refused before it reached a worker (e.g. larger than the queue) is in no trace.
    if (failed > 0) std::printf("  %u/%u proofs FAILED (the errors are above)\n", failed, o.proofs);
    std::printf("  %u/%u proofs VALID\n", valid, o.proofs);
    return valid == o.proofs;
}

#if defined(CUZK_PROVE_GPU)
/// The GPU engine's settings from the options.
gpu_settings gpu_settings_of(const options& o) {
    return {.locking = o.locking,
            .staging = o.staging,
            .g2_on_gpu = o.g2 == "gpu",
            .evaluate_on_gpu = o.evaluate == "gpu",
            .precompute = o.precompute,
            .key_chunk_points = size_t(1) << o.key_chunk_log,
            .layout = o.layout,
            .workers = o.workers,
            .devices = o.devices,
            .vram_gb = o.vram_gb};
}
#endif

template <class Curve>
int run(const options& o) {
    using Fr = typename Curve::fr;
#if defined(CUZK_PROVE_GPU)
    const bool gpu = o.backend == "gpu" || (o.backend == "auto" && gpu_present());
#else
    const bool gpu = false;
    if (o.backend == "gpu") {
        std::fprintf(stderr, "cuzk-prove: --backend gpu, but this build has no CUDA support\n");
        return 2;
    }
#endif
    // GPU options are refused on the CPU backend rather than ignored: a run meant for two GPUs that
    // fell back to the CPU would otherwise report CPU numbers under the GPUs' flags.
    for (const auto& [given, flag] : {std::pair{o.rerun_vram_gb > 0, "--rerun-in-vram-gb"},
                                      std::pair{o.devices_given, "--devices"}, std::pair{o.vram_gb > 0, "--vram-gb"}})
        if (given && !gpu) {
            std::fprintf(stderr, "cuzk-prove: %s needs the GPU backend, and none is in use\n", flag);
            return 2;
        }
    const synthetic_options shape =
        o.porep
            ? porep_shape(o.log_size, o.seed)
            : synthetic_options{.log_domain = o.log_size, .num_public = 4, .bit_share = o.bit_share, .seed = o.seed};
    std::printf("cuzk-prove: %s, domain 2^%u, %switness %.0f%% bits, %u proof(s), %s backend\n", Curve::name,
                o.log_size, o.porep ? "PoRep-shaped, " : "", 100 * shape.bit_share, o.proofs, gpu ? "GPU" : "CPU");
    auto t0 = std::chrono::steady_clock::now();
    auto ckt = synthetic_circuit<Fr>(shape);
    std::printf("  circuit: %zu constraints, %zu variables, %zu public inputs (%.2f s)\n", ckt.system.num_constraints(),
                ckt.system.num_variables, ckt.system.num_public, seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    std::printf("  setup: INSECURE test keys from a seed, on the %s ...\n", gpu ? "GPU" : "CPU"), std::fflush(stdout);
    std::shared_ptr<const proving_key<Curve>> pk;
    const bool write_params = !o.write_params.empty();  // a bellperson key: bellperson's domain roots
#if defined(CUZK_PROVE_GPU)
    if (gpu && !write_params) {
        std::optional<std::pair<density_map, density_map>> densities;  // PoRep: compressed from the start
        if (o.porep) densities = r1cs_densities(ckt.system);
        pk = std::make_shared<const proving_key<Curve>>(test_setup_on_gpu<Curve>(ckt.system, o.seed, densities));
    }
#endif
    if (!pk)
        pk = std::make_shared<const proving_key<Curve>>(test_setup_insecure<Curve>(
            ckt.system, o.seed, write_params ? cuzk::ntt::domain_roots::bellperson : cuzk::ntt::domain_roots::snarkjs));
    std::printf("  setup: %.2f s\n", seconds_since(t0));
    if (o.porep) {  // Filecoin's keys hold A and B points only for non-empty columns
        if (pk->is_dense()) {  // the CPU setup's key (the GPU setup makes it compressed)
            const auto [a_density, b_density] = r1cs_densities(ckt.system);
            pk = std::make_shared<const proving_key<Curve>>(to_density_compressed(*pk, a_density, b_density));
        }
        std::printf("  key density-compressed: A %zu, B %zu of %zu variables\n", pk->a.size(), pk->b_g1.size(),
                    pk->num_variables());
    }
    if constexpr (std::is_same_v<Curve, cuzk::bls12_381::curve>) {
        if (write_params) {
            t0 = std::chrono::steady_clock::now();
            proving_key<Curve> file_key = *pk;
            cuzk::io::to_monomial_h(file_key);  // bellperson files hold [tau^i Z(tau) / delta]
            cuzk::io::write_bellperson_params(o.write_params, file_key);
            std::printf("  wrote %s: the INSECURE test key as a bellperson .params file (%.2f s)\n",
                        o.write_params.c_str(), seconds_since(t0));
        }
    }

    auto system = std::shared_ptr<const r1cs<Fr>>(&ckt.system, [](auto*) {});  // outlives the engine
    built_engine<Curve> e;
#if defined(CUZK_PROVE_GPU)
    if (gpu) e = make_gpu_engine<Curve>(gpu_settings_of(o), pk, system);
#endif
    if (!gpu) {
        const size_t witness_bytes = ckt.assignment.size() * sizeof(Fr);
        e.engine = std::make_unique<engine<Curve>>(
            std::vector<engine_slot<Curve>>{{-1, std::make_shared<const prover<Curve>>(pk, system)}},
            engine_options{.workers_per_slot = o.workers, .max_queued_bytes = (o.workers + 1) * witness_bytes});
    }
    bool ok = run_engine<Curve>(o, *pk, ckt, *e.engine, e.evaluate_on_host);
#if defined(CUZK_PROVE_GPU)
    if (gpu && o.rerun_vram_gb > 0) {
        e = {};  // the first engine's device memory goes back before the second takes its budget
        options small = o;
        small.staging = "chunked", small.vram_gb = o.rerun_vram_gb;
        std::printf("  again with --staging chunked --vram-gb %g (same circuit and key):\n", o.rerun_vram_gb);
        e = make_gpu_engine<Curve>(gpu_settings_of(small), pk, system);
        ok = run_engine<Curve>(small, *pk, ckt, *e.engine, e.evaluate_on_host) && ok;
    }
#endif
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) == 0)  // ru_maxrss is in KiB on Linux
        std::printf("  host RSS peak %.2f GiB\n", double(usage.ru_maxrss) / double(1 << 20));
    std::printf("%s\n", ok ? "all proofs verified" : "VERIFICATION FAILED");
    return ok ? 0 : 1;
}

/// The file modes (examples/zkey_prover.hpp): argv[1] is a zkey.
int file_mode(int argc, char** argv) {
    const std::string zkey = argv[1];
    std::string backend = "auto", out_dir, trace;
    bool stages = false, copy_key = false, serving = false, have_out = false, have_workers = false;
    unsigned workers = 0;  // 0: the front door's default (service::prover_options::workers_per_device)
    std::vector<std::string> files;
    for (int i = 2; i < argc; ++i) {
        std::string_view a = argv[i];
        if (a == "--backend" && i + 1 < argc) {
            backend = argv[++i];
            if (backend != "auto" && backend != "cpu" && backend != "gpu")
                usage(("cuzk-prove: bad value '" + backend + "' for --backend (auto, cpu or gpu)").c_str());
        } else if (a == "--out" && i + 1 < argc) {
            out_dir = argv[++i];
            have_out = true;
        } else if (a == "--workers" && i + 1 < argc) {
            const std::string v = argv[++i];
            char* end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || n < 1 || n > 64)
                usage(("cuzk-prove: bad value '" + v + "' for --workers (a whole number, 1 to 64)").c_str());
            workers = unsigned(n);
            have_workers = true;
        } else if (a == "--trace" && i + 1 < argc) {
            trace = argv[++i];
        } else if (a == "--stages") {
            stages = true;
        } else if (a == "--copy-key") {
            copy_key = true;
        } else if (a == "--serve") {
            serving = true;
        } else if (!a.empty() && a[0] == '-') {
            usage(("cuzk-prove: unknown argument " + std::string(a)).c_str());
        } else {
            files.emplace_back(a);
        }
    }
    if (serving && !files.empty())
        usage("cuzk-prove: --serve reads the witness paths from stdin, not the command line");
    if (!serving && have_out && files.empty()) usage("cuzk-prove: --out DIR needs at least one witness file");
    if (have_workers && !serving && !have_out)
        usage("cuzk-prove: --workers is for many witnesses (--out DIR or --serve); one witness takes one");
    if (!trace.empty() && (serving || !have_out))
        usage("cuzk-prove: --trace FILE is for batch mode (--out DIR); a server's trace would grow without bound");
    if (!serving && !have_out && files.size() != 3)
        usage(
            "cuzk-prove: expected <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--backend cpu|gpu] "
            "[--stages], or <circuit.zkey> --out DIR <witness.wtns>..., or <circuit.zkey> --serve");
    try {
        const bool bn = cuzk::io::zkey_curve_name(zkey) == "bn128";
        using namespace cuzk_prove;
        if (serving)
            return bn ? serve<cuzk::io::bn128>(zkey, out_dir, backend, workers)
                      : serve<cuzk::io::bls12381>(zkey, out_dir, backend, workers);
        if (have_out)
            return bn ? prove_batch<cuzk::io::bn128>(zkey, files, out_dir, backend, workers, trace)
                      : prove_batch<cuzk::io::bls12381>(zkey, files, out_dir, backend, workers, trace);
        return bn ? prove_single<cuzk::io::bn128>(zkey, files[0], files[1], files[2], backend, stages, copy_key)
                  : prove_single<cuzk::io::bls12381>(zkey, files[0], files[1], files[2], backend, stages, copy_key);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk-prove: error: %s\n", e.what());
        return 1;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (cuzk::examples::print_version_if_asked(argc, argv, "cuzk-prove")) return 0;
    if (argc >= 2 && argv[1][0] != '-') return file_mode(argc, argv);
    options o = parse(argc, argv);
    try {
        return o.curve == "bn254" ? run<cuzk::bn254::curve>(o) : run<cuzk::bls12_381::curve>(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk-prove: error: %s\n", e.what());
        return 1;
    }
}
