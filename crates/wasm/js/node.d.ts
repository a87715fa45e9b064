import type { Board, Engine, Limits, SearchInfo, SearchResult } from "./fianchetto_wasm.js";

export * from "./fianchetto_wasm.js";
/** Whether the module running is the SIMD build. */
export const simd: boolean;
/** A search cut into slices (one iteration each; MCTS: 200 ms), asking shouldStop() between them. */
export function searchInSlices(
  engine: Engine,
  board: Board,
  limits: (Limits & { infinite?: boolean }) | undefined,
  algorithm: string,
  hooks: { onInfo?: (info: SearchInfo) => void; shouldStop: () => boolean; pause: () => Promise<void> },
): Promise<SearchResult>;
