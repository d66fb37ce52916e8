pragma circom 2.0.0;

// Sized by a parameter: N chained multiplications x_{i+1} = x_i * x_i + c.
template MulChain(N) {
    signal input x;
    signal input c;
    signal output out;
    signal t[N + 1];
    t[0] <== x;
    for (var i = 0; i < N; i++) {
        t[i + 1] <== t[i] * t[i] + c;
    }
    out <== t[N];
}

component main {public [c]} = MulChain(400);
