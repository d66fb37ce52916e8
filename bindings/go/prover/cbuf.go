// SPDX-License-Identifier: MIT OR Apache-2.0

package prover

/*
#include <cuzk/c/cuzk_prover.h>
*/
import "C"

import (
	"bytes"
	"unsafe"
)

// errorBufSize holds every message the C API writes (they are one line, a few hundred bytes at
// most); a longer one is truncated by the library, never overrun.
const errorBufSize = 1024

// bytesPtr is the address of b's first byte for a C call that only reads it during the call
// (cgo allows Go memory that holds no Go pointers), or nil for an empty slice, which the C API
// refuses with a message.
func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// cstring is the text in b up to its first NUL.
func cstring(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// errorBuf is a message buffer for one C call.
type errorBuf [errorBufSize]byte

func (e *errorBuf) ptr() *C.char       { return (*C.char)(unsafe.Pointer(&e[0])) }
func (e *errorBuf) size() C.ulonglong  { return C.ulonglong(len(e)) }
func (e *errorBuf) err(rc C.int) error { return &Error{Code: Code(rc), Message: cstring(e[:])} }

// proveCall is one of the C API's proving calls with its key and witness bound: it writes into
// the output buffers under rapidsnark's buffer rules.
type proveCall func(proof *C.char, proofSize *C.ulonglong, public *C.char, publicSize *C.ulonglong,
	msg *C.char, msgSize C.ulonglong) C.int

// prove runs call with buffers of the given capacities (sizes that always suffice, from the C
// API's size queries) and, should the library still answer SHORT_BUFFER, once more with the
// sizes it asked for. The proof is randomised, so a retry is a new proof, not a copy.
func prove(call proveCall, proofCap, publicCap uint64) (proof, public string, err error) {
	var msg errorBuf
	if proofCap == 0 || publicCap == 0 {
		return "", "", &Error{Code: CodeError, Message: "the library reported an output size of 0"}
	}
	for attempt := 0; ; attempt++ {
		proofBuf := make([]byte, proofCap)
		publicBuf := make([]byte, publicCap)
		ps, us := C.ulonglong(proofCap), C.ulonglong(publicCap)
		rc := call((*C.char)(unsafe.Pointer(&proofBuf[0])), &ps, (*C.char)(unsafe.Pointer(&publicBuf[0])), &us,
			msg.ptr(), msg.size())
		if rc == C.CUZK_PROVER_OK {
			return string(proofBuf[:ps]), string(publicBuf[:us]), nil
		}
		if rc != C.CUZK_PROVER_ERROR_SHORT_BUFFER || attempt > 0 {
			return "", "", msg.err(rc)
		}
		proofCap, publicCap = uint64(ps), uint64(us)
	}
}
