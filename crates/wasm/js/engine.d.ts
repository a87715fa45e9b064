import type { EngineOptions, Limits, SearchInfo, SearchResult } from "./fianchetto_wasm.js";

/** The engine in a Web Worker; "info" events carry each iteration's SearchInfo (and the search's id). */
export class EngineWorker extends EventTarget {
  constructor(options?: EngineOptions, where?: { workerUrl?: string | URL; wasm?: string | URL | WebAssembly.Module; simd?: boolean });
  /** Resolves once the worker has loaded the engine. */
  readonly ready: Promise<EngineWorker>;
  algorithms?: string[];
  evaluations?: string[];
  /** Whether the worker runs the SIMD build (null when given a module). */
  simd?: boolean | null;
  search(request?: { fen?: string; moves?: string[]; limits?: Limits & { infinite?: boolean }; whole?: boolean }): Promise<SearchResult>;
  stop(): void;
  configure(options: EngineOptions): void;
  clear(): void;
  terminate(): void;
}
export type { SearchInfo };
