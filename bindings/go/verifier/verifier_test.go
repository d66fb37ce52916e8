// SPDX-License-Identifier: MIT OR Apache-2.0

package verifier_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cuzk/cuzk/bindings/go/internal/fixture"
	"github.com/cuzk/cuzk/bindings/go/prover"
	"github.com/cuzk/cuzk/bindings/go/types"
	"github.com/cuzk/cuzk/bindings/go/verifier"
)

type candidate struct {
	label         string
	vk            []byte
	proof, public string
	resident      *prover.Prover // the prover whose key is vk, for its Verify
}

// bumped is the decimal text s + 1 (a signal that reaches r is rejected by both verifiers too).
func bumped(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// Our three verify calls agree with snarkjs's groth16.verify on good proofs (snarkjs's own and
// ours) and tampered ones (a signal changed, points swapped, another circuit's proof), on every
// fixture of both curves.
func TestAgreesWithSnarkjs(t *testing.T) {
	oracle := fixture.NewSnarkjs(t)
	var all []candidate
	for _, curve := range fixture.Curves {
		for i, name := range fixture.Circuits {
			f := fixture.Load(t, curve, name)
			other := fixture.Load(t, curve, fixture.Circuits[(i+1)%len(fixture.Circuits)])
			r, err := prover.NewProver(f.Zkey, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			ours, ourPublic, err := r.ProveRaw(f.Wtns)
			if err != nil {
				t.Fatal(err)
			}
			add := func(how, proof, public string) {
				all = append(all, candidate{curve + "/" + name + "/" + how, f.VK, proof, public, r})
			}
			add("snarkjs_proof", f.Proof, f.Public)
			add("our_proof", ours, ourPublic)

			var signals []string
			if err := json.Unmarshal([]byte(f.Public), &signals); err != nil {
				t.Fatal(err)
			}
			for k := range signals {
				s := append([]string(nil), signals...)
				s[k] = bumped(s[k])
				pub, _ := json.Marshal(s)
				add(fmt.Sprintf("signal%d_plus_1", k), ours, string(pub))
			}
			var pd map[string]any
			if err := json.Unmarshal([]byte(ours), &pd); err != nil {
				t.Fatal(err)
			}
			pd["pi_a"], pd["pi_c"] = pd["pi_c"], pd["pi_a"]
			swapped, _ := json.Marshal(pd)
			add("a_c_swapped", string(swapped), ourPublic)
			add("other_circuits_proof", other.Proof, f.Public)
		}
	}
	for _, c := range all {
		oracle.Add(t, c.label, c.vk, c.proof, c.public)
	}
	verdicts := oracle.Verdicts(t)
	good := 0
	for _, c := range all {
		want := verdicts[c.label]
		if want {
			good++
		}
		check := func(how string, err error) {
			t.Helper()
			if (err == nil) != want {
				t.Errorf("%s: %s says %v, snarkjs says valid=%v", c.label, how, err, want)
			}
			if err != nil && !errors.Is(err, verifier.ErrInvalidProof) && !errors.Is(err, verifier.ErrMalformed) {
				t.Errorf("%s: %s: an error of another type: %v", c.label, how, err)
			}
		}
		check("VerifyGroth16Raw", verifier.VerifyGroth16Raw(c.proof, c.public, c.vk))
		check("Prover.Verify", c.resident.Verify(c.proof, c.public))
		var pd types.ProofData
		var signals []string
		if json.Unmarshal([]byte(c.proof), &pd) == nil && json.Unmarshal([]byte(c.public), &signals) == nil {
			check("VerifyGroth16", verifier.VerifyGroth16(types.ZKProof{Proof: &pd, PubSignals: signals}, c.vk))
		}
	}
	if want := 2 * len(fixture.Curves) * len(fixture.Circuits); good != want {
		t.Errorf("snarkjs accepted %d proofs, want the %d untampered ones", good, want)
	}
}

// Input that is not snarkjs's JSON is CodeError, not an invalid proof.
func TestMalformed(t *testing.T) {
	bn := fixture.Load(t, "bn128", "mul_chain")
	bls := fixture.Load(t, "bls12381", "mul_chain")
	for _, c := range []struct {
		what          string
		proof, public string
		vk            []byte
	}{
		{"proof not JSON", "{", bn.Public, bn.VK},
		{"signals not an array", bn.Proof, `{"a":1}`, bn.VK},
		{"key not JSON", bn.Proof, bn.Public, []byte("]")},
		{"a bls12381 proof for a bn128 key", bls.Proof, bls.Public, bn.VK},
		{"a NUL in the proof", bn.Proof + "\x00", bn.Public, bn.VK},
	} {
		err := verifier.VerifyGroth16Raw(c.proof, c.public, c.vk)
		var e *verifier.Error
		if !errors.As(err, &e) || e.Code != verifier.CodeError || e.Message == "" {
			t.Errorf("%s: %v", c.what, err)
		} else if !strings.Contains(e.Error(), "CUZK_VERIFIER_ERROR") {
			t.Errorf("%s: %q does not name the code", c.what, e.Error())
		}
	}
	if err := verifier.VerifyGroth16(types.ZKProof{}, bn.VK); !errors.Is(err, verifier.ErrMalformed) {
		t.Errorf("a nil proof: %v", err)
	}
}

// Latency of one verify per curve (docs/PERFORMANCE.md): go test -run '^$' -bench .
func BenchmarkVerify(b *testing.B) {
	for _, curve := range fixture.Curves {
		b.Run(curve, func(b *testing.B) {
			f := fixture.Load(b, curve, "poseidon_cmp")
			if err := verifier.VerifyGroth16Raw(f.Proof, f.Public, f.VK); err != nil { // warm-up
				b.Fatal(err)
			}
			cpu0 := fixture.CPUTime()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := verifier.VerifyGroth16Raw(f.Proof, f.Public, f.VK); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric((fixture.CPUTime()-cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}
