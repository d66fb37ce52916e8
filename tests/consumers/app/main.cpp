// A downstream program: proves cuzk::cuzk gives it the headers and the C++20 settings.
#include <cstdio>

#include "cuzk/curves/bls12_381.hpp"

int main() {
    using cuzk::bls12_381::fr;
    fr x = fr::from_u64(3);
    bool ok = (x * x.inverse()).is_one();
    std::printf("consumer: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
