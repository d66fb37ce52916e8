pragma circom 2.0.0;

// Several public inputs and outputs, private inputs, linear and quadratic constraints.
// Public signals (snarkjs order): out_sum, out_prod, then x, y, z.
template MultiPublic() {
    signal input x;
    signal input y;
    signal input z;
    signal input secret;
    signal output out_sum;
    signal output out_prod;

    signal xy;
    signal xyz;
    xy <== x * y;
    xyz <== xy * z;
    out_prod <== xyz * secret;
    out_sum <== x + 2 * y + 3 * z - secret;  // a linear constraint (empty A and B)
}

component main {public [x, y, z]} = MultiPublic();
