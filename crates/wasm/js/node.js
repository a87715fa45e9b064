// The package's entry point in Node.js: instantiates the WebAssembly module
// from the file beside this one, synchronously, and exports everything
// wasm-bindgen generated (Board, Engine, readPgn, version).
import { readFileSync } from "node:fs";
import { initSync } from "./fianchetto_wasm.js";

initSync({ module: readFileSync(new URL("./fianchetto_wasm_bg.wasm", import.meta.url)) });

export * from "./fianchetto_wasm.js";
export { searchInSlices } from "./slices.js";
