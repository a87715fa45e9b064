// The built package under test: FIANCHETTO_WASM_PKG, or what
// scripts/wasm/build.sh writes (target/wasm-pkg, under CARGO_TARGET_DIR if set).
import { existsSync } from "node:fs";
import { resolve, isAbsolute } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const target = process.env.CARGO_TARGET_DIR
  ? (isAbsolute(process.env.CARGO_TARGET_DIR) ? process.env.CARGO_TARGET_DIR : resolve(root, process.env.CARGO_TARGET_DIR))
  : resolve(root, "target");
export const pkgDir = process.env.FIANCHETTO_WASM_PKG ? resolve(process.env.FIANCHETTO_WASM_PKG) : resolve(target, "wasm-pkg");
if (!existsSync(resolve(pkgDir, "node.js"))) {
  throw new Error(`no package in ${pkgDir}: run scripts/wasm/build.sh first`);
}
export const releaseBinary = resolve(target, "release", "fianchetto");
export const fianchetto = await import(pathToFileURL(resolve(pkgDir, "node.js")).href);
