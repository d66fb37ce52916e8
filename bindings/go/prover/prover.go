// SPDX-License-Identifier: MIT OR Apache-2.0

// Package prover proves Groth16 witnesses of circom circuits against snarkjs zkeys with cuzk's
// C API (libcuzk_prover), on both curves snarkjs supports (bn128 and bls12381, read from the
// zkey), on the CPU or a GPU.
//
// Groth16Prover and Groth16ProverRaw have the shapes of go-rapidsnark's prover package
// (github.com/iden3/go-rapidsnark/prover): code written for go-rapidsnark switches by changing
// the import path. Every proof is checked against the key's verifying key before it is
// returned: a witness that does not satisfy the circuit gives an error of code
// CodeVerifyFailed and no proof. To prove many witnesses against one key, NewProver keeps the
// key loaded (and, on a GPU, resident in VRAM) and proves from any number of goroutines.
//
// Build: cgo finds the header and library through CGO_CFLAGS="-I<cuzk>/include" and
// CGO_LDFLAGS="-L<dir of libcuzk_prover.so> -Wl,-rpath,<that dir>" (docs/GO.md).
package prover

/*
#cgo LDFLAGS: -lcuzk_prover
#include <stdlib.h>
#include <cuzk/c/cuzk_prover.h>
*/
import "C"

import (
	"encoding/json"
	"strings"
	"unsafe"

	"github.com/cuzk/cuzk/bindings/go/types"
)

// Groth16Prover proves witness (the bytes of a .wtns file) against zkey (the bytes of a snarkjs
// .zkey) and returns the proof and its public signals decoded (go-rapidsnark's Groth16Prover).
func Groth16Prover(zkey []byte, witness []byte) (proof *types.ZKProof, err error) {
	proofJSON, publicJSON, err := Groth16ProverRaw(zkey, witness)
	if err != nil {
		return nil, err
	}
	return decode(proofJSON, publicJSON)
}

// Groth16ProverRaw is Groth16Prover returning proof.json and public.json as the texts snarkjs
// writes (go-rapidsnark's Groth16ProverRaw). The key is read for this call only: to prove many
// witnesses, use NewProver.
func Groth16ProverRaw(zkey []byte, witness []byte) (proof string, publicInputs string, err error) {
	var publicCap C.ulonglong
	var msg errorBuf
	if rc := C.cuzk_groth16_public_size_for_zkey_buf(bytesPtr(zkey), C.ulonglong(len(zkey)), &publicCap, msg.ptr(),
		msg.size()); rc != C.CUZK_PROVER_OK {
		return "", "", msg.err(rc)
	}
	return prove(func(pb *C.char, ps *C.ulonglong, ub *C.char, us *C.ulonglong, m *C.char, mn C.ulonglong) C.int {
		return C.cuzk_groth16_prover(bytesPtr(zkey), C.ulonglong(len(zkey)), bytesPtr(witness),
			C.ulonglong(len(witness)), pb, ps, ub, us, m, mn)
	}, proofSizeBound(), uint64(publicCap))
}

// Groth16ProverZkeyFile is Groth16ProverRaw with the zkey read from a file, straight into the
// key's storage (no copy of the file in Go memory).
func Groth16ProverZkeyFile(zkeyPath string, witness []byte) (proof string, publicInputs string, err error) {
	path, err := cPath(zkeyPath)
	if err != nil {
		return "", "", err
	}
	defer C.free(unsafe.Pointer(path))
	var publicCap C.ulonglong
	var msg errorBuf
	if rc := C.cuzk_groth16_public_size_for_zkey_file(path, &publicCap, msg.ptr(), msg.size()); rc != C.CUZK_PROVER_OK {
		return "", "", msg.err(rc)
	}
	return prove(func(pb *C.char, ps *C.ulonglong, ub *C.char, us *C.ulonglong, m *C.char, mn C.ulonglong) C.int {
		return C.cuzk_groth16_prover_zkey_file(path, bytesPtr(witness), C.ulonglong(len(witness)), pb, ps, ub, us, m, mn)
	}, proofSizeBound(), uint64(publicCap))
}

// cPath is path as a C string (free it with C.free). A path with a NUL byte cannot name a file
// and would be cut short by C, so it is refused.
func cPath(path string) (*C.char, error) {
	if strings.IndexByte(path, 0) >= 0 {
		return nil, &Error{Code: CodeInvalidArgument, Message: "the zkey path contains a NUL byte"}
	}
	return C.CString(path), nil
}

// proofSizeBound is the proof.json size (with the NUL) that holds a proof of either curve.
func proofSizeBound() uint64 {
	var n C.ulonglong
	C.cuzk_groth16_proof_size(&n)
	return uint64(n)
}

// decode turns the library's texts into go-rapidsnark's types. They are snarkjs's JSON, so a
// failure here is a bug in the library, reported as CodeError.
func decode(proofJSON, publicJSON string) (*types.ZKProof, error) {
	var proof types.ProofData
	var signals []string
	if err := json.Unmarshal([]byte(proofJSON), &proof); err != nil {
		return nil, &Error{Code: CodeError, Message: "the library's proof.json does not decode: " + err.Error()}
	}
	if err := json.Unmarshal([]byte(publicJSON), &signals); err != nil {
		return nil, &Error{Code: CodeError, Message: "the library's public.json does not decode: " + err.Error()}
	}
	return &types.ZKProof{Proof: &proof, PubSignals: signals}, nil
}

// Version is the library's version, "MAJOR.MINOR.PATCH".
func Version() string { return C.GoString(C.cuzk_prover_version()) }

// Capabilities says what the loaded library and this machine offer.
type Capabilities struct {
	Curves               []string // snarkjs's names of the curves the library proves
	GPUBackend           bool     // the CUDA backend is compiled in
	GPUCount             int      // CUDA devices visible to this process now
	OpenMP               bool     // CPU proofs run on several threads
	MaxThreads           int      // threads a CPU proof uses by default
	X86ADX               bool     // host field multiplication uses BMI2/ADX
	PrecompiledInstances bool     // the GPU kernels come from cuzk::instances
	BuildOptions         string   // e.g. "cuda=on cuda_arch=90 openmp=on x86_adx=on instances=on"
}

// GetCapabilities queries the library (cuzk_prover_get_capabilities).
func GetCapabilities() (Capabilities, error) {
	var c C.cuzk_prover_capabilities
	c.struct_size = C.uint(unsafe.Sizeof(c))
	if rc := C.cuzk_prover_get_capabilities(&c); rc != C.CUZK_PROVER_OK {
		return Capabilities{}, &Error{Code: Code(rc), Message: "cuzk_prover_get_capabilities failed"}
	}
	var curves []string
	if c.curves&C.CUZK_PROVER_CURVE_BN254 != 0 {
		curves = append(curves, "bn128")
	}
	if c.curves&C.CUZK_PROVER_CURVE_BLS12_381 != 0 {
		curves = append(curves, "bls12381")
	}
	return Capabilities{
		Curves:               curves,
		GPUBackend:           c.gpu_backend != 0,
		GPUCount:             int(c.gpu_count),
		OpenMP:               c.openmp != 0,
		MaxThreads:           int(c.max_threads),
		X86ADX:               c.x86_adx != 0,
		PrecompiledInstances: c.precompiled_instances != 0,
		BuildOptions:         C.GoString(c.build_options),
	}, nil
}
