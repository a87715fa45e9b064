// The package's entry point in Node.js: instantiates the WebAssembly module
// from the files beside this one, synchronously (the SIMD build where the
// host has SIMD; FIANCHETTO_WASM_SIMD=0 or 1 forces the choice), and
// exports everything wasm-bindgen generated (Board, Engine, readPgn,
// version), plus `simd` (which build runs) and searchInSlices.
import { readFileSync } from "node:fs";
import { initSync } from "./fianchetto_wasm.js";
import { hasSimd, wasmFile } from "./load.js";

const forced = process.env.FIANCHETTO_WASM_SIMD;
/** Whether the module running is the SIMD build. */
export const simd = forced === undefined || forced === "" ? hasSimd() : forced !== "0";
initSync({ module: readFileSync(new URL("./" + wasmFile(simd), import.meta.url)) });

export * from "./fianchetto_wasm.js";
export { searchInSlices } from "./slices.js";
