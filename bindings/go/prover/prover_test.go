// SPDX-License-Identifier: MIT OR Apache-2.0

package prover_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cuzk/cuzk/bindings/go/internal/fixture"
	"github.com/cuzk/cuzk/bindings/go/prover"
	"github.com/cuzk/cuzk/bindings/go/types"
	"github.com/cuzk/cuzk/bindings/go/verifier"
)

// encode is the proof.json and public.json of a decoded proof, as a caller of Groth16Prover
// would hand them on.
func encode(t *testing.T, p *types.ZKProof) (string, string) {
	t.Helper()
	proof, err := json.Marshal(p.Proof)
	if err != nil {
		t.Fatal(err)
	}
	public, err := json.Marshal(p.PubSignals)
	if err != nil {
		t.Fatal(err)
	}
	return string(proof), string(public)
}

// Every way to prove, on every fixture of both curves: public.json is snarkjs's byte for byte,
// the decoded signals equal snarkjs's, and snarkjs's verify accepts every proof.
func TestProveFixtures(t *testing.T) {
	oracle := fixture.NewSnarkjs(t)
	for _, curve := range fixture.Curves {
		for _, name := range fixture.Circuits {
			f := fixture.Load(t, curve, name)
			var want []string
			if err := json.Unmarshal([]byte(f.Public), &want); err != nil {
				t.Fatal(err)
			}
			label := func(how string) string { return curve + "/" + name + "/" + how }
			raw := func(how string, proof, public string, err error) {
				t.Helper()
				if err != nil {
					t.Errorf("%s: %v", label(how), err)
					return
				}
				if public != f.Public {
					t.Errorf("%s: public.json %q, snarkjs wrote %q", label(how), public, f.Public)
				}
				oracle.Add(t, label(how), f.VK, proof, public)
			}
			decoded := func(how string, p *types.ZKProof, err error) {
				t.Helper()
				if err != nil {
					t.Errorf("%s: %v", label(how), err)
					return
				}
				if !reflect.DeepEqual(p.PubSignals, want) || p.Proof.Protocol != "groth16" {
					t.Errorf("%s: signals %v protocol %q, snarkjs's signals %v", label(how), p.PubSignals,
						p.Proof.Protocol, want)
				}
				proof, public := encode(t, p)
				oracle.Add(t, label(how), f.VK, proof, public)
			}

			proof, public, err := prover.Groth16ProverRaw(f.Zkey, f.Wtns)
			raw("oneshot_raw", proof, public, err)
			p, err := prover.Groth16Prover(f.Zkey, f.Wtns)
			decoded("oneshot", p, err)
			proof, public, err = prover.Groth16ProverZkeyFile(f.ZkeyPath, f.Wtns)
			raw("oneshot_file", proof, public, err)

			r, err := prover.NewProver(f.Zkey, nil)
			if err != nil {
				t.Fatalf("%s: NewProver: %v", label(""), err)
			}
			info := r.Info()
			if info.Curve != curve || info.NPublic != uint64(len(want)) || !info.Verify {
				t.Errorf("%s: info %+v", label(""), info)
			}
			proof, public, err = r.ProveRaw(f.Wtns)
			raw("resident_raw", proof, public, err)
			p, err = r.Prove(f.Wtns)
			decoded("resident", p, err)
			r.Close()

			rf, err := prover.NewProverFromFile(f.ZkeyPath, &prover.Options{Backend: prover.BackendCPU, Threads: 1})
			if err != nil {
				t.Fatalf("%s: NewProverFromFile: %v", label(""), err)
			}
			if rf.Info().Backend != prover.BackendCPU || rf.Info().Threads != 1 {
				t.Errorf("%s: options not applied: %+v", label(""), rf.Info())
			}
			proof, public, err = rf.ProveRaw(f.Wtns)
			raw("resident_file_cpu_1thread", proof, public, err)
			rf.Close()
		}
	}
	for label, ok := range oracle.Verdicts(t) {
		if !ok {
			t.Errorf("%s: snarkjs rejects the proof", label)
		}
	}
}

// expect checks that err is the C API's code want with a message, and that no proof came back.
func expect(t *testing.T, what string, err error, want *prover.Error, proof string, words ...string) {
	t.Helper()
	var e *prover.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: got %v, want a *prover.Error of %s", what, err, want.Code)
		return
	}
	if !errors.Is(err, want) || e.Message == "" || !strings.Contains(e.Error(), want.Code.String()) {
		t.Errorf("%s: got %s %q, want %s with a message", what, e.Code, e.Message, want.Code)
	}
	for _, w := range words {
		if !strings.Contains(e.Message, w) {
			t.Errorf("%s: message %q does not say %q", what, e.Message, w)
		}
	}
	if proof != "" {
		t.Errorf("%s: a proof came back with the error", what)
	}
	t.Logf("%s: %v", what, err)
}

// Each failure has its own code and a message; none returns a proof.
func TestErrors(t *testing.T) {
	caps, err := prover.GetCapabilities()
	if err != nil {
		t.Fatal(err)
	}
	for i, curve := range fixture.Curves {
		f := fixture.Load(t, curve, "mul_chain")
		other := fixture.Load(t, curve, "poseidon_cmp")
		otherCurve := fixture.Load(t, fixture.Curves[1-i], "mul_chain")
		r, err := prover.NewProver(f.Zkey, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		codes := map[prover.Code]string{}
		seen := func(what string, err error) {
			var e *prover.Error
			if errors.As(err, &e) {
				if prev, dup := codes[e.Code]; dup {
					t.Errorf("%s: %s and %s share the code %s", curve, prev, what, e.Code)
				}
				codes[e.Code] = what
			}
		}

		bad := fixture.Tampered(t, f.Wtns, 1)
		proof, _, err := r.ProveRaw(bad)
		expect(t, curve+" tampered witness", err, prover.ErrVerifyFailed, proof, "does not satisfy the circuit")
		seen("tampered witness", err)
		proof, _, err = prover.Groth16ProverRaw(f.Zkey, bad)
		expect(t, curve+" tampered witness, one-shot", err, prover.ErrVerifyFailed, proof)
		p, err := r.Prove(bad)
		expect(t, curve+" tampered witness, decoded", err, prover.ErrVerifyFailed, "")
		if p != nil {
			t.Errorf("%s: a decoded proof came back for a tampered witness", curve)
		}

		proof, _, err = r.ProveRaw(other.Wtns)
		expect(t, curve+" other circuit's witness", err, prover.ErrInvalidWitnessLength, proof)
		seen("other circuit's witness", err)
		proof, _, err = r.ProveRaw(otherCurve.Wtns)
		expect(t, curve+" other curve's witness", err, prover.ErrCurveMismatch, proof)
		seen("other curve's witness", err)
		proof, _, err = r.ProveRaw(f.Wtns[:len(f.Wtns)/2])
		expect(t, curve+" truncated witness", err, prover.ErrInvalidWitness, proof)
		seen("truncated witness", err)

		truncated := f.Zkey[:len(f.Zkey)/2]
		proof, _, err = prover.Groth16ProverRaw(truncated, f.Wtns)
		expect(t, curve+" truncated zkey, one-shot", err, prover.ErrInvalidZkey, proof)
		_, err = prover.NewProver(truncated, nil)
		expect(t, curve+" truncated zkey", err, prover.ErrInvalidZkey, "")
		seen("truncated zkey", err)
		missing := filepath.Join(t.TempDir(), "missing.zkey")
		_, err = prover.NewProverFromFile(missing, nil)
		expect(t, curve+" missing file", err, prover.ErrIO, "", "missing.zkey")
		seen("missing file", err)
		proof, _, err = prover.Groth16ProverZkeyFile(missing, f.Wtns)
		expect(t, curve+" missing file, one-shot", err, prover.ErrIO, proof)

		for _, o := range []struct {
			word string
			opts prover.Options
		}{
			{"threads", prover.Options{Threads: 1025}},
			{"threads", prover.Options{Threads: -1}},
			{"backend", prover.Options{Backend: 7}},
			{"gpu_device", prover.Options{GPUDevice: -1}},
			{"max_concurrent_proofs", prover.Options{MaxConcurrentProofs: -1}},
		} {
			opts := o.opts
			_, err = prover.NewProver(f.Zkey, &opts)
			expect(t, fmt.Sprintf("%s options %+v", curve, opts), err, prover.ErrInvalidArgument, "", o.word)
		}
		seen("bad options", err)
		if caps.GPUCount == 0 {
			_, err = prover.NewProver(f.Zkey, &prover.Options{Backend: prover.BackendGPU})
			expect(t, curve+" GPU backend without a GPU", err, prover.ErrNoGPU, "")
			seen("no GPU", err)
		}
		proof, _, err = r.ProveRaw(nil)
		if err == nil || proof != "" {
			t.Errorf("%s: an empty witness gave %v", curve, err)
		}
	}
}

// 8 goroutines on one resident prover, 2 of them with tampered witnesses: 6 proofs that snarkjs
// accepts, 2 CodeVerifyFailed.
func TestConcurrentGoroutines(t *testing.T) {
	oracle := fixture.NewSnarkjs(t)
	for _, curve := range fixture.Curves {
		f := fixture.Load(t, curve, "multi_public")
		r, err := prover.NewProver(f.Zkey, nil)
		if err != nil {
			t.Fatal(err)
		}
		tampered := fixture.Tampered(t, f.Wtns, 1)
		type result struct {
			proof, public string
			err           error
		}
		results := make([]result, 8)
		var wg sync.WaitGroup
		for i := range results {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				w := f.Wtns
				if i == 2 || i == 5 {
					w = tampered
				}
				results[i].proof, results[i].public, results[i].err = r.ProveRaw(w)
			}(i)
		}
		wg.Wait()
		r.Close()
		valid, rejected := 0, 0
		for i, res := range results {
			switch {
			case res.err == nil && i != 2 && i != 5:
				valid++
				oracle.Add(t, fmt.Sprintf("%s/goroutine%d", curve, i), f.VK, res.proof, res.public)
			case errors.Is(res.err, prover.ErrVerifyFailed) && res.proof == "" && (i == 2 || i == 5):
				rejected++
			default:
				t.Errorf("%s goroutine %d: %v", curve, i, res.err)
			}
		}
		if valid != 6 || rejected != 2 {
			t.Errorf("%s: %d valid and %d rejected, want 6 and 2", curve, valid, rejected)
		}
	}
	for label, ok := range oracle.Verdicts(t) {
		if !ok {
			t.Errorf("%s: snarkjs rejects the proof", label)
		}
	}
}

// Close waits for the proofs in flight (which complete with valid proofs: their key is not freed
// under them); afterwards every call says ErrClosed.
func TestClose(t *testing.T) {
	f := fixture.Load(t, "bn128", "mul_chain")
	r, err := prover.NewProver(f.Zkey, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg, started sync.WaitGroup
	type result struct {
		proof, public string
		err           error
	}
	results := make([]result, 4)
	for i := range results {
		wg.Add(1)
		started.Add(1)
		go func(i int) {
			defer wg.Done()
			started.Done()
			results[i].proof, results[i].public, results[i].err = r.ProveRaw(f.Wtns)
		}(i)
	}
	started.Wait()
	time.Sleep(5 * time.Millisecond) // most are inside the C call by now (a proof takes tens of ms)
	r.Close()
	wg.Wait()
	done := 0
	for i, res := range results {
		switch {
		case res.err == nil:
			done++
			if err := verifier.VerifyGroth16Raw(res.proof, res.public, f.VK); err != nil {
				t.Errorf("proof %d, in flight at Close: %v", i, err)
			}
		case !errors.Is(res.err, prover.ErrClosed):
			t.Errorf("proof %d around Close: %v", i, res.err)
		}
	}
	t.Logf("%d of %d proofs were in flight at Close and completed", done, len(results))
	if _, _, err := r.ProveRaw(f.Wtns); !errors.Is(err, prover.ErrClosed) {
		t.Errorf("prove after Close: %v", err)
	}
	if err := r.Verify(f.Proof, f.Public); !errors.Is(err, verifier.ErrMalformed) {
		t.Errorf("verify after Close: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestVersion(t *testing.T) {
	v := prover.Version()
	if strings.Count(v, ".") != 2 {
		t.Errorf("version %q", v)
	}
	caps, err := prover.GetCapabilities()
	if err != nil || !reflect.DeepEqual(caps.Curves, []string{"bn128", "bls12381"}) {
		t.Errorf("capabilities %+v, %v", caps, err)
	}
	if prover.CodeVerifyFailed.String() != "CUZK_PROVER_ERROR_VERIFY_FAILED" {
		t.Errorf("code name %q", prover.CodeVerifyFailed.String())
	}
}

// Latency of one resident proof per curve (docs/PERFORMANCE.md): go test -run '^$' -bench .
// cpu-ms/op is the process's CPU time (all threads) per proof, the number that a loaded machine
// disturbs least; tests/c_api/c_api_timing reports the same for the C API.
func BenchmarkResidentProve(b *testing.B) {
	for _, curve := range fixture.Curves {
		b.Run(curve, func(b *testing.B) {
			f := fixture.Load(b, curve, benchCircuit())
			r, err := prover.NewProver(f.Zkey, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			b.ReportMetric(float64(r.Info().DomainSize), "domain")
			if _, _, err := r.ProveRaw(f.Wtns); err != nil { // warm-up: first-touch of the key's pages
				b.Fatal(err)
			}
			cpu0 := fixture.CPUTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, err := r.ProveRaw(f.Wtns); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric((fixture.CPUTime()-cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

func benchCircuit() string {
	if c := os.Getenv("CUZK_BENCH_CIRCUIT"); c != "" {
		return c
	}
	return "poseidon_cmp"
}
