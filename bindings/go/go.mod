// SPDX-License-Identifier: MIT OR Apache-2.0

// The Go binding of cuzk (docs/GO.md): standard library only, over libcuzk_prover through cgo.
module github.com/cuzk/cuzk/bindings/go

go 1.19
