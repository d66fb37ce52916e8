// SPDX-License-Identifier: MIT OR Apache-2.0

// Package types holds the proof shapes of go-rapidsnark's types package
// (github.com/iden3/go-rapidsnark/types): the same fields and JSON tags, so that code written
// against go-rapidsnark compiles unchanged against this module.
package types

// ProofData is snarkjs's proof.json: the points as decimal strings in projective form.
type ProofData struct {
	A        []string   `json:"pi_a"`
	B        [][]string `json:"pi_b"`
	C        []string   `json:"pi_c"`
	Protocol string     `json:"protocol"`
}

// ZKProof is a proof with its public signals (snarkjs's public.json).
type ZKProof struct {
	Proof      *ProofData `json:"proof"`
	PubSignals []string   `json:"pub_signals"`
}
