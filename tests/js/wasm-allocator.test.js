// The .wasm's malloc (src/eg_slab.c) under the real core: small blocks
// churned by whole histories freed and read again, large blocks grown until
// they move. Every result read back is exact, and the memory settles.
// (Its native C tests run over the C library's malloc: the large blocks'
// emmalloc side, and moving them, happen only here.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphEngine, ChatHistoryManager, memoryUsage } from 'edgegraph';

function history(n, tag) {
  const out = [];
  for (let i = 0; i < n; i++) out.push({ role: i % 2 ? 'assistant' : 'user', content: `${tag} ${i}: ${'words '.repeat(1 + (i % 40))}`, id: `${tag}-${i}` });
  return out;
}

test('histories imported over each other, of every size, read back exactly', () => {
  const h = new ChatHistoryManager({ maxContextTokens: 1_000_000 });
  try {
    for (const [round, n] of [3000, 10, 8000, 1, 5000, 300, 8000].entries()) {
      const messages = history(n, `r${round}`);
      h.importHistory(messages);
      const back = h.exportHistory();
      assert.equal(back.length, n);
      assert.deepEqual(back.map((m) => m.content), messages.map((m) => m.content));
      assert.deepEqual(back.map((m) => m.id), messages.map((m) => m.id));
    }
  } finally {
    h.dispose();
  }
});

test('a state that grows by 64 KB a step for 40 steps: every byte kept, and the memory settles', async () => {
  const chunk = (i) => String.fromCharCode(65 + (i % 26)).repeat(65536);
  const engine = new GraphEngine({
    nodes: { grow: (s) => ({ data: { parts: [...s.data.parts, chunk(s.data.n)], n: s.data.n + 1 } }) },
    edges: { grow: { path: 'data.n', cases: { 40: '__end__' }, default: 'grow' } },
    entryPoint: 'grow',
  }, { maxSteps: 50 });
  try {
    const sizes = [];
    for (let run = 0; run < 4; run++) {
      const r = await engine.execute({ data: { parts: [], n: 0 } });
      assert.equal(r.status, 'FINISHED', r.error?.message);
      assert.equal(r.state.data.parts.length, 40);
      r.state.data.parts.forEach((p, i) => assert.equal(p, chunk(i)));
      sizes.push(memoryUsage().wasmMemoryBytes);
    }
    // The second run on reuses the first one's memory: no growth from run to run.
    assert.equal(sizes[3], sizes[1]);
  } finally {
    engine.dispose();
  }
});
