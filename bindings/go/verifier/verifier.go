// SPDX-License-Identifier: MIT OR Apache-2.0

// Package verifier checks Groth16 proofs as snarkjs writes them, on bn128 and bls12381 (the curve
// the verification key names), with cuzk's C API (cuzk_groth16_verify in libcuzk_prover).
//
// VerifyGroth16 has the shape of go-rapidsnark's verifier.VerifyGroth16: nil for a valid proof,
// an error otherwise. A proof snarkjs's groth16.verify rejects is rejected here; so are a few that
// snarkjs accepts (a point outside its prime-order subgroup or at infinity, a coordinate not below
// the field's modulus, another number of public signals than the key's): docs/C_API.md lists
// the checks. The error is an *Error whose Code tells an invalid proof (CodeInvalidProof) from
// input that cannot be read (CodeError).
package verifier

/*
#cgo LDFLAGS: -lcuzk_prover
#include <stdlib.h>
#include <cuzk/c/cuzk_prover.h>
*/
import "C"

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unsafe"

	"github.com/cuzk/cuzk/bindings/go/types"
)

// Code is a verifier code of the C API: rapidsnark's VERIFIER_* values.
type Code int

const (
	CodeValidProof   Code = C.CUZK_VERIFIER_VALID_PROOF   // the proof verifies (never in an Error)
	CodeInvalidProof Code = C.CUZK_VERIFIER_INVALID_PROOF // the texts can be read and the proof does not verify
	CodeError        Code = C.CUZK_VERIFIER_ERROR         // a text is not what snarkjs writes, or the key is bad
)

func (c Code) String() string {
	switch c {
	case CodeValidProof:
		return "CUZK_VERIFIER_VALID_PROOF"
	case CodeInvalidProof:
		return "CUZK_VERIFIER_INVALID_PROOF"
	case CodeError:
		return "CUZK_VERIFIER_ERROR"
	}
	return fmt.Sprintf("Code(%d)", int(c))
}

// Error is a rejected proof or unreadable input, with the library's reason.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string {
	if e.Code == CodeInvalidProof {
		return "cuzk: invalid proof: " + e.Message
	}
	return fmt.Sprintf("cuzk: %s: %s", e.Code, e.Message)
}

// Is reports whether target is an *Error of the same code, for errors.Is(err, ErrInvalidProof).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

var (
	// ErrInvalidProof matches every proof that does not verify.
	ErrInvalidProof = &Error{Code: CodeInvalidProof}
	// ErrMalformed matches input that cannot be read as snarkjs's JSON (CodeError).
	ErrMalformed = &Error{Code: CodeError}
)

// VerifyGroth16 checks zkProof against verificationKey (the bytes of snarkjs's
// verification_key.json): nil when the proof is valid.
func VerifyGroth16(zkProof types.ZKProof, verificationKey []byte) error {
	if zkProof.Proof == nil {
		return &Error{Code: CodeError, Message: "the proof is nil"}
	}
	proofJSON, err := json.Marshal(zkProof.Proof)
	if err != nil {
		return &Error{Code: CodeError, Message: err.Error()}
	}
	signals := zkProof.PubSignals
	if signals == nil {
		signals = []string{} // "[]", not "null": a circuit without public signals
	}
	publicJSON, err := json.Marshal(signals)
	if err != nil {
		return &Error{Code: CodeError, Message: err.Error()}
	}
	return VerifyGroth16Raw(string(proofJSON), string(publicJSON), verificationKey)
}

// VerifyGroth16Raw checks the texts of proof.json and public.json against verificationKey.
func VerifyGroth16Raw(proof, publicInputs string, verificationKey []byte) error {
	// C reads NUL-terminated texts: an embedded NUL would cut one short, so it is refused.
	if strings.IndexByte(proof, 0) >= 0 || strings.IndexByte(publicInputs, 0) >= 0 ||
		bytes.IndexByte(verificationKey, 0) >= 0 {
		return &Error{Code: CodeError, Message: "a text contains a NUL byte"}
	}
	cp, cu, ck := C.CString(proof), C.CString(publicInputs), C.CString(string(verificationKey))
	defer C.free(unsafe.Pointer(cp))
	defer C.free(unsafe.Pointer(cu))
	defer C.free(unsafe.Pointer(ck))
	var msg [1024]byte
	rc := C.cuzk_groth16_verify(cp, cu, ck, (*C.char)(unsafe.Pointer(&msg[0])), C.ulonglong(len(msg)))
	if rc == C.CUZK_VERIFIER_VALID_PROOF {
		return nil
	}
	n := bytes.IndexByte(msg[:], 0)
	if n < 0 {
		n = len(msg)
	}
	return &Error{Code: Code(rc), Message: string(msg[:n])}
}
