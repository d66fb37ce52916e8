// SPDX-License-Identifier: MIT OR Apache-2.0

package prover

/*
#include <stdlib.h>
#include <cuzk/c/cuzk_prover.h>
*/
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/cuzk/cuzk/bindings/go/types"
	"github.com/cuzk/cuzk/bindings/go/verifier"
)

// Backend selects where a Prover computes.
type Backend int

const (
	BackendAuto Backend = C.CUZK_PROVER_BACKEND_AUTO // the GPU when one is present and built in, else the CPU
	BackendCPU  Backend = C.CUZK_PROVER_BACKEND_CPU
	BackendGPU  Backend = C.CUZK_PROVER_BACKEND_GPU // CodeNoGPU when there is none
)

func (b Backend) String() string {
	switch b {
	case BackendAuto:
		return "auto"
	case BackendCPU:
		return "cpu"
	case BackendGPU:
		return "gpu"
	}
	return fmt.Sprintf("Backend(%d)", int(b))
}

// Options of a resident prover: the C API's cuzk_prover_options. The zero value is the C API's
// defaults (backend auto, verification on, all threads, device 0, 90% of its memory, no limit on
// concurrent proofs). The library checks every field and refuses one out of range with
// CodeInvalidArgument and a message naming it (docs/C_API.md).
type Options struct {
	Backend Backend
	// SkipVerify returns proofs unchecked: a bad witness then gives a proof verifiers reject
	// instead of CodeVerifyFailed. Named for the non-default so that the zero value verifies.
	SkipVerify bool
	// Threads per proof on the host (0: all); at most CUZK_PROVER_MAX_THREADS (1024).
	Threads int
	// GPUDevice is the CUDA device ordinal (>= 0), unused on the CPU.
	GPUDevice int
	// VRAMBudgetBytes is the VRAM the prover may use, resident key included (0: 90% of the device).
	VRAMBudgetBytes uint64
	// MaxConcurrentProofs bounds the proofs in flight at once; others wait (0: no limit).
	MaxConcurrentProofs int
}

// cOptions converts o. Negative counts have no C value (the fields are unsigned): they are
// refused here with the code and wording the library uses for its own range checks.
func (o *Options) cOptions() (*C.cuzk_prover_options, error) {
	var c C.cuzk_prover_options
	C.cuzk_prover_options_init(&c)
	if o == nil {
		return &c, nil
	}
	// Values above the C API's own limits but within 32 bits go through, for the library to refuse.
	unsigned := func(name string, v int) (C.uint, error) {
		if v < 0 {
			return 0, &Error{Code: CodeInvalidArgument, Message: fmt.Sprintf("options: %s %d is negative", name, v)}
		}
		if uint64(v) > math.MaxUint32 {
			return 0, &Error{Code: CodeInvalidArgument, Message: fmt.Sprintf("options: %s %d does not fit 32 bits", name, v)}
		}
		return C.uint(v), nil
	}
	var err error
	if c.threads, err = unsigned("threads", o.Threads); err != nil {
		return nil, err
	}
	if c.max_concurrent_proofs, err = unsigned("max_concurrent_proofs", o.MaxConcurrentProofs); err != nil {
		return nil, err
	}
	if o.GPUDevice < math.MinInt32 || o.GPUDevice > math.MaxInt32 {
		return nil, &Error{Code: CodeInvalidArgument, Message: fmt.Sprintf("options: gpu_device %d does not fit 32 bits", o.GPUDevice)}
	}
	c.backend = C.int(o.Backend)
	if o.SkipVerify {
		c.verify = 0
	}
	c.gpu_device = C.int(o.GPUDevice)
	c.vram_budget_bytes = C.ulonglong(o.VRAMBudgetBytes)
	return &c, nil
}

// Info is what a resident prover holds and uses (cuzk_prover_info).
type Info struct {
	Curve               string  // snarkjs's name: "bn128" or "bls12381"
	Backend             Backend // BackendCPU or BackendGPU: the one in use
	Verify              bool    // proofs are verified before they are returned
	Threads             int     // host threads per proof (0: all)
	MaxConcurrentProofs int     // 0: no limit
	NVars               uint64  // witness length the key expects (with the constant 1)
	NPublic             uint64  // public signals
	DomainSize          uint64  // rows of the proving domain (a power of two)
	HostKeyBytes        uint64  // host memory of the resident key
	HostProofBytes      uint64  // host memory of one proof in flight
	GPUDevice           int     // the CUDA device, or -1 on the CPU
	KeyResidentOnGPU    bool    // the key stays in VRAM between proofs
	VRAMBudgetBytes     uint64  // the budget drawn on (0 on the CPU)
	DeviceKeyBytes      uint64  // VRAM held by the resident key
	DeviceProofBytes    uint64  // VRAM one proof in flight reserves
	Note                string  // why the GPU was not used or the key is not resident, or ""
}

// Prover is a proving key loaded once, proving any number of witnesses from any number of
// goroutines at once (each proof occupies its goroutine's thread for the call). Close frees the
// key; a Prover that is never closed is freed when the garbage collector finds it unreachable.
type Prover struct {
	// mu is held shared by every call into the handle and exclusively by Close, so that the handle
	// is destroyed only after the calls in flight have returned, as the C API requires.
	mu                  sync.RWMutex
	handle              *C.cuzk_prover
	info                Info
	proofCap, publicCap uint64
}

// NewProver loads zkey (the bytes of a snarkjs .zkey; copied into the prover, so the slice may be
// reused once this returns). opts nil: the defaults.
func NewProver(zkey []byte, opts *Options) (*Prover, error) {
	copts, err := opts.cOptions()
	if err != nil {
		return nil, err
	}
	var h *C.cuzk_prover
	var msg errorBuf
	if rc := C.cuzk_groth16_prover_create_with_options(&h, bytesPtr(zkey), C.ulonglong(len(zkey)), copts, msg.ptr(),
		msg.size()); rc != C.CUZK_PROVER_OK {
		return nil, msg.err(rc)
	}
	return newProver(h)
}

// NewProverFromFile loads the zkey at path straight into the key's storage.
func NewProverFromFile(zkeyPath string, opts *Options) (*Prover, error) {
	copts, err := opts.cOptions()
	if err != nil {
		return nil, err
	}
	path, err := cPath(zkeyPath)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(path))
	var h *C.cuzk_prover
	var msg errorBuf
	if rc := C.cuzk_groth16_prover_create_zkey_file_with_options(&h, path, copts, msg.ptr(), msg.size()); rc != C.CUZK_PROVER_OK {
		return nil, msg.err(rc)
	}
	return newProver(h)
}

func newProver(h *C.cuzk_prover) (*Prover, error) {
	var ci C.cuzk_prover_info
	ci.struct_size = C.uint(unsafe.Sizeof(ci))
	var msg errorBuf
	if rc := C.cuzk_groth16_prover_get_info(h, &ci, msg.ptr(), msg.size()); rc != C.CUZK_PROVER_OK {
		C.cuzk_groth16_prover_destroy(h)
		return nil, msg.err(rc)
	}
	p := &Prover{handle: h, proofCap: uint64(ci.proof_size), publicCap: uint64(ci.public_size), info: Info{
		Curve:               C.GoString(ci.curve_name),
		Backend:             Backend(ci.backend),
		Verify:              ci.verify != 0,
		Threads:             int(ci.threads),
		MaxConcurrentProofs: int(ci.max_concurrent_proofs),
		NVars:               uint64(ci.n_vars),
		NPublic:             uint64(ci.n_public),
		DomainSize:          uint64(ci.domain_size),
		HostKeyBytes:        uint64(ci.host_key_bytes),
		HostProofBytes:      uint64(ci.host_proof_bytes),
		GPUDevice:           int(ci.gpu_device),
		KeyResidentOnGPU:    ci.key_resident_on_gpu != 0,
		VRAMBudgetBytes:     uint64(ci.vram_budget_bytes),
		DeviceKeyBytes:      uint64(ci.device_key_bytes),
		DeviceProofBytes:    uint64(ci.device_proof_bytes),
		Note:                C.GoString(ci.note),
	}}
	runtime.SetFinalizer(p, (*Prover).Close)
	return p, nil
}

// Info says what the prover holds and uses; it does not change over the prover's life.
func (p *Prover) Info() Info { return p.info }

// Prove proves witness (the bytes of a .wtns file) and returns the proof decoded.
func (p *Prover) Prove(witness []byte) (*types.ZKProof, error) {
	proofJSON, publicJSON, err := p.ProveRaw(witness)
	if err != nil {
		return nil, err
	}
	return decode(proofJSON, publicJSON)
}

// ProveRaw proves witness and returns proof.json and public.json as snarkjs writes them.
func (p *Prover) ProveRaw(witness []byte) (proof string, publicInputs string, err error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.handle == nil {
		return "", "", ErrClosed
	}
	h := p.handle
	return prove(func(pb *C.char, ps *C.ulonglong, ub *C.char, us *C.ulonglong, m *C.char, mn C.ulonglong) C.int {
		return C.cuzk_groth16_prover_prove(h, bytesPtr(witness), C.ulonglong(len(witness)), pb, ps, ub, us, m, mn)
	}, p.proofCap, p.publicCap)
}

// Verify checks proof.json and public.json texts against the prover's verifying key, with the
// rules and the errors of verifier.VerifyGroth16Raw (nil: valid).
func (p *Prover) Verify(proof, publicInputs string) error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.handle == nil {
		return &verifier.Error{Code: verifier.CodeError, Message: "the prover is closed"}
	}
	if strings.IndexByte(proof, 0) >= 0 || strings.IndexByte(publicInputs, 0) >= 0 {
		return &verifier.Error{Code: verifier.CodeError, Message: "a text contains a NUL byte"}
	}
	cp, cu := C.CString(proof), C.CString(publicInputs)
	defer C.free(unsafe.Pointer(cp))
	defer C.free(unsafe.Pointer(cu))
	var msg errorBuf
	rc := C.cuzk_groth16_prover_verify(p.handle, cp, cu, msg.ptr(), msg.size())
	if rc == C.CUZK_VERIFIER_VALID_PROOF {
		return nil
	}
	return &verifier.Error{Code: verifier.Code(rc), Message: cstring(msg[:])}
}

// Close waits for the proofs in flight, then frees the key and its host and device memory.
// Later calls return ErrClosed; closing again does nothing.
func (p *Prover) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.handle != nil {
		C.cuzk_groth16_prover_destroy(p.handle)
		p.handle = nil
		runtime.SetFinalizer(p, nil)
	}
	return nil
}
