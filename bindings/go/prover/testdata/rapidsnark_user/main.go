// SPDX-License-Identifier: MIT OR Apache-2.0

// A program written against go-rapidsnark (github.com/iden3/go-rapidsnark): TestSwitch rewrites
// its imports with the line docs/GO.md gives and runs it against this module. Under testdata/,
// so the go tool never builds it as it stands.
//
//	rapidsnark_user ZKEY WTNS VERIFICATION_KEY
package main

import (
	"fmt"
	"os"

	"github.com/iden3/go-rapidsnark/prover"
	"github.com/iden3/go-rapidsnark/types"
	"github.com/iden3/go-rapidsnark/verifier"
)

func must(b []byte, err error) []byte {
	if err != nil {
		fmt.Println(err)
		os.Exit(2)
	}
	return b
}

func main() {
	zkey, wtns, vk := must(os.ReadFile(os.Args[1])), must(os.ReadFile(os.Args[2])), must(os.ReadFile(os.Args[3]))

	var proof *types.ZKProof
	proof, err := prover.Groth16Prover(zkey, wtns)
	if err != nil {
		fmt.Println("Groth16Prover:", err)
		os.Exit(1)
	}
	if err := verifier.VerifyGroth16(*proof, vk); err != nil {
		fmt.Println("VerifyGroth16:", err)
		os.Exit(1)
	}
	proofJSON, publicJSON, err := prover.Groth16ProverRaw(zkey, wtns)
	if err != nil || proofJSON == "" || publicJSON == "" {
		fmt.Println("Groth16ProverRaw:", err)
		os.Exit(1)
	}
	var data types.ProofData = *proof.Proof
	fmt.Println("ok", data.Protocol, len(proof.PubSignals))
}
