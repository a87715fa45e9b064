// Which build of the module a host runs, chosen at load: the one compiled
// with WebAssembly SIMD (simd128: the compiler vectorises the NNUE's loops)
// where the host validates SIMD code, the scalar one elsewhere. The two are
// the same code, bindings and results; only the speed differs.
import init from "./fianchetto_wasm.js";

// The smallest module with a SIMD instruction: () -> v128, i8x16.popcnt of
// a splat.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

// Whether this host runs WebAssembly SIMD.
export function hasSimd() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// The file name of the build to load (SIMD where the host has it, unless
// `simd` says otherwise).
export function wasmFile(simd = hasSimd()) {
  return simd ? "fianchetto_wasm_simd_bg.wasm" : "fianchetto_wasm_bg.wasm";
}

// The URL of that build, beside this module.
export function wasmUrl(simd = hasSimd()) {
  return new URL("./" + wasmFile(simd), import.meta.url);
}

// Loads the module (in a page or a worker): the SIMD build where the host
// has SIMD, unless `simd` says otherwise. Resolves to whether it is the SIMD one.
export default async function load(simd = hasSimd()) {
  await init({ module_or_path: wasmUrl(simd) });
  return simd;
}
