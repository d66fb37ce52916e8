// SPDX-License-Identifier: MIT OR Apache-2.0

package prover

/*
#include <cuzk/c/cuzk_prover.h>
*/
import "C"

import "fmt"

// Code is an error code of the C API (CUZK_PROVER_*). 0..3 are rapidsnark's codes with the same
// meaning; the others say which kind of failure rapidsnark's PROVER_ERROR was.
type Code int

// The C API's codes, taken from the header so that they cannot drift from the library's.
const (
	CodeOK                   Code = C.CUZK_PROVER_OK
	CodeError                Code = C.CUZK_PROVER_ERROR
	CodeShortBuffer          Code = C.CUZK_PROVER_ERROR_SHORT_BUFFER
	CodeInvalidWitnessLength Code = C.CUZK_PROVER_INVALID_WITNESS_LENGTH
	CodeInvalidArgument      Code = C.CUZK_PROVER_ERROR_INVALID_ARGUMENT
	CodeInvalidZkey          Code = C.CUZK_PROVER_ERROR_INVALID_ZKEY
	CodeInvalidWitness       Code = C.CUZK_PROVER_ERROR_INVALID_WITNESS
	CodeCurveMismatch        Code = C.CUZK_PROVER_ERROR_CURVE_MISMATCH
	CodeVerifyFailed         Code = C.CUZK_PROVER_ERROR_VERIFY_FAILED
	CodeNoGPU                Code = C.CUZK_PROVER_ERROR_NO_GPU
	CodeIO                   Code = C.CUZK_PROVER_ERROR_IO
	CodeGPU                  Code = C.CUZK_PROVER_ERROR_GPU
	CodeOutOfMemory          Code = C.CUZK_PROVER_ERROR_OUT_OF_MEMORY
	CodeRandomness           Code = C.CUZK_PROVER_ERROR_RANDOMNESS
)

// String is the C API's name of the code ("CUZK_PROVER_ERROR_VERIFY_FAILED"), or "unknown".
func (c Code) String() string { return C.GoString(C.cuzk_prover_error_name(C.int(c))) }

// Description is the C API's one-line description of the code.
func (c Code) Description() string { return C.GoString(C.cuzk_prover_error_string(C.int(c))) }

// Error is a failure reported by the C API: its code and its message. Compare kinds with
// errors.Is against the Err* values below, or read Code after errors.As.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("cuzk: %s (%s)", e.Code, e.Code.Description())
	}
	return fmt.Sprintf("cuzk: %s: %s", e.Code, e.Message)
}

// Is reports whether target is an *Error of the same code: errors.Is(err, prover.ErrVerifyFailed)
// matches whatever the message.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// One value per code, for errors.Is.
var (
	ErrProver               = &Error{Code: CodeError}
	ErrShortBuffer          = &Error{Code: CodeShortBuffer}
	ErrInvalidWitnessLength = &Error{Code: CodeInvalidWitnessLength}
	ErrInvalidArgument      = &Error{Code: CodeInvalidArgument}
	ErrInvalidZkey          = &Error{Code: CodeInvalidZkey}
	ErrInvalidWitness       = &Error{Code: CodeInvalidWitness}
	ErrCurveMismatch        = &Error{Code: CodeCurveMismatch}
	ErrVerifyFailed         = &Error{Code: CodeVerifyFailed}
	ErrNoGPU                = &Error{Code: CodeNoGPU}
	ErrIO                   = &Error{Code: CodeIO}
	ErrGPU                  = &Error{Code: CodeGPU}
	ErrOutOfMemory          = &Error{Code: CodeOutOfMemory}
	ErrRandomness           = &Error{Code: CodeRandomness}
)

// ErrClosed is returned by the methods of a Prover after Close. Its code is
// CodeInvalidArgument: the C API's answer to a call on a destroyed handle.
var ErrClosed = &Error{Code: CodeInvalidArgument, Message: "the prover is closed"}
