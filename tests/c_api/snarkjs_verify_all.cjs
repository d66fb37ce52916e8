// SPDX-License-Identifier: MIT OR Apache-2.0
// Verifies a list of Groth16 proofs in one node process with snarkjs's groth16.verify, the
// function `snarkjs groth16 verify` calls (the files are read as its CLI reads them), so that
// test_c_api pays node's and the curves' start-up once instead of once per proof (42 proofs:
// ~60 s -> a few seconds).
//
//   node snarkjs_verify_all.cjs SNARKJS_CLI LIST
//
// SNARKJS_CLI: snarkjs's CLI (node_modules/snarkjs/build/cli.cjs); its CommonJS entry main.cjs
// beside it is what this loads. LIST: one line
// per proof, "label<TAB>verification_key.json<TAB>public.json<TAB>proof.json". Prints one line
// per proof, "label OK" or "label INVALID" (a proof that cannot be read or checked is INVALID,
// with the reason on stderr). Exits 0 when every line was answered.
"use strict";
const fs = require("fs");
const path = require("path");
const snarkjs = require(path.join(path.dirname(process.argv[2]), "main.cjs"));

async function main() {
    const lines = fs.readFileSync(process.argv[3], "utf8").split("\n").filter((l) => l.length > 0);
    for (const line of lines) {
        const [label, vk, pub, proof] = line.split("\t");
        let valid = false;
        try {
            const read = (path) => JSON.parse(fs.readFileSync(path, "utf8"));
            valid = await snarkjs.groth16.verify(read(vk), read(pub), read(proof));
        } catch (e) {
            console.error(`${label}: ${e.message}`);
        }
        console.log(`${label} ${valid === true ? "OK" : "INVALID"}`);
    }
}

main().then(
    () => process.exit(0),
    (e) => {
        console.error(e);
        process.exit(1);
    },
);
