// The objects a test makes that own WebAssembly memory (GraphEngine,
// StateManager, ChatHistoryManager) are disposed when the test ends, passed or
// failed: `const engine = disposeAfter(t, new GraphEngine(definition))`.

/** Dispose `object` when the test `t` ends; returns `object`. */
export function disposeAfter(t, object) {
  t.after(() => object.dispose());
  return object;
}
