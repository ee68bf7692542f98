// leaks.js: a FinalizationRegistry backstop for handles into WebAssembly
// memory. Objects should be disposed (dispose() or `using`); one that is
// garbage-collected first still has its memory freed, and a warning says
// which kind of object was dropped, so the leak can be fixed at its source.

let warn = (message) => globalThis.console?.warn?.(message);

/** Where dropped-handle warnings go (default console.warn); null to silence them. */
export function onLeakWarning(fn) { warn = fn ?? (() => {}); }

/** Say that an object of this kind was collected without dispose() (handle.js frees it). */
export function warnLeak(kind) {
  warn(`edgegraph: a ${kind} was garbage-collected without dispose(); its WebAssembly memory was freed now. Call dispose() (or use \`using\`) when done with it.`);
}
