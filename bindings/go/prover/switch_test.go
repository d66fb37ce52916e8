// SPDX-License-Identifier: MIT OR Apache-2.0

package prover_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cuzk/cuzk/bindings/go/internal/fixture"
)

// The switch docs/GO.md promises: a program written for go-rapidsnark, its imports rewritten as
// `sed 's#github.com/iden3/go-rapidsnark/#github.com/cuzk/cuzk/bindings/go/#'` does, and its
// go.mod pointed at this module, builds unchanged and proves and verifies.
func TestSwitch(t *testing.T) {
	f := fixture.Load(t, "bn128", "mul_chain")
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	module, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "rapidsnark_user", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `"github.com/iden3/go-rapidsnark/prover"`) {
		t.Fatal("the program does not import go-rapidsnark")
	}
	dir := t.TempDir()
	switched := strings.ReplaceAll(string(src), "github.com/iden3/go-rapidsnark/", "github.com/cuzk/cuzk/bindings/go/")
	goMod := "module example.com/user\n\ngo 1.19\n\nrequire github.com/cuzk/cuzk/bindings/go v0.0.0\n\n" +
		"replace github.com/cuzk/cuzk/bindings/go => " + module + "\n"
	for name, text := range map[string]string{"main.go": switched, "go.mod": goMod} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	vk := filepath.Join(dir, "verification_key.json")
	wtns := filepath.Join(dir, "witness.wtns")
	if os.WriteFile(vk, f.VK, 0o600) != nil || os.WriteFile(wtns, f.Wtns, 0o600) != nil {
		t.Fatal("cannot write the inputs")
	}
	cmd := exec.Command(goTool, "run", ".", f.ZkeyPath, wtns, vk)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok groth16 2") {
		t.Fatalf("the switched program: %v\n%s", err, out)
	}
}
