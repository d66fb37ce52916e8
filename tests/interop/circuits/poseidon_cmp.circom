pragma circom 2.0.0;

include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/comparators.circom";

// circomlib templates: a Poseidon hash of a private value, and a range comparison
// (LessThan on 32 bits) of another private value against a public bound.
// Sized to fit a 2^9 domain (about 450 constraints, linear ones included).
template PoseidonCmp() {
    signal input a;
    signal input b;
    signal input bound;
    signal output hash;
    signal output below;

    component h = Poseidon(1);
    h.inputs[0] <== a;
    hash <== h.out;

    component lt = LessThan(32);
    lt.in[0] <== b;
    lt.in[1] <== bound;
    below <== lt.out;
}

component main {public [bound]} = PoseidonCmp();
