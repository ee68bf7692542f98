// Type declarations for edgegraph (hand-written; checked by `make typecheck`). The declarations
// live in js/types/, one file per area; this file is the package's types entry.

declare global {
  interface SymbolConstructor {
    /** As in TypeScript's lib "esnext.disposable", so that `[Symbol.dispose]()` below compiles
     *  without it (a plain `target: "es2022"` project); the two declarations merge. */
    readonly dispose: unique symbol;
  }
}

export * from './types/core.js';
export * from './types/engine.js';
export * from './types/history.js';
export * from './types/state.js';
export * from './types/llm.js';
export * from './types/agents.js';
export * from './types/stores.js';
export * from './types/events.js';
export * from './types/stream.js';
export * from './types/cache.js';
