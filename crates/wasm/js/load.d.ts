/** Whether this host runs WebAssembly SIMD. */
export function hasSimd(): boolean;
/** The file name of the build to load: the SIMD one where the host has SIMD, unless `simd` says otherwise. */
export function wasmFile(simd?: boolean): string;
/** The URL of that build, beside the module. */
export function wasmUrl(simd?: boolean): URL;
/** Loads the module; resolves to whether it is the SIMD build. */
export default function load(simd?: boolean): Promise<boolean>;
