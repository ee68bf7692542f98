// The shared fixtures (tests/fixtures/*.json), replayed through the JS
// engine with scripted node functions and routers. The C tests replay the
// same files against the core directly: both layers are held to one trace.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { GraphEngine } from 'edgegraph';

const dir = new URL('../fixtures/', import.meta.url);
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

/** Build handlers and routers that answer from fixture.script, and a trace. */
function scripted(fixture, { delays = false } = {}) {
  const trace = [];
  const counters = new Map();
  const next = (key) => {
    const list = fixture.script?.[key];
    if (!list || list.length === 0) return undefined;
    const i = counters.get(key) ?? 0;
    counters.set(key, i + 1);
    return structuredClone(list[Math.min(i, list.length - 1)]);
  };
  const handlers = {};
  const routers = {};
  for (const name of Object.keys(fixture.graph.nodes)) {
    handlers[name] = () => {
      trace.push(name);
      const answer = next(name) ?? {};
      const reply = () => {
        if (answer && typeof answer === 'object' && '$throw' in answer) throw new Error(answer.$throw);
        return answer;
      };
      // Random delays: branches finish in any order; results must not care.
      if (delays) return new Promise((resolve) => setTimeout(resolve, Math.random() * 5)).then(reply);
      return reply();
    };
  }
  for (const [from, edge] of Object.entries(fixture.graph.edges ?? {})) {
    if (edge && typeof edge === 'object' && edge.router) {
      routers[edge.router] = () => {
        trace.push(`router:${from}`);
        return next(`router:${from}`);
      };
    }
  }
  return { trace, handlers, routers };
}

async function replay(fixture, options = {}) {
  const { trace, handlers, routers } = scripted(fixture, options);
  const engine = new GraphEngine(fixture.graph, { handlers, routers, maxSteps: fixture.options?.maxSteps });
  const stop = (r) => trace.push(r.error && r.status !== 'INTERRUPTED' ? `${r.status}:${r.error.code}` : r.status);
  let result = await engine.execute(fixture.input);
  stop(result);
  for (const step of fixture.resume ?? []) {
    // Through JSON and back, as if stored and loaded in another process;
    // alternate between resuming from the checkpoint and from the state.
    const saved = options.fromCheckpoint ? result.checkpoint : JSON.parse(JSON.stringify(result.state));
    result = await engine.resume(saved, step.input ?? undefined);
    stop(result);
  }
  engine.dispose();
  return { trace, result };
}

function check(fixture, { trace, result }) {
  const want = fixture.expect;
  assert.deepEqual(trace, want.trace, 'trace');
  if (want.status) assert.equal(result.status, want.status, 'status');
  for (const [key, value] of Object.entries(want.state ?? {})) assert.deepEqual(result.state[key], value, `state.${key}`);
  for (const [key, value] of Object.entries(want.error ?? {})) assert.equal(result.error?.[key], value, `error.${key}`);
  for (const key of want.absent ?? []) assert.equal(key in result.state, false, `${key} absent`);
}

test('at least a dozen shared fixtures exist', () => assert.ok(fixtures.length >= 12));

for (const file of fixtures) {
  const fixture = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
  test(`fixture ${file}: ${fixture.name}`, async () => check(fixture, await replay(fixture)));
  test(`fixture ${file}: resumed from checkpoints, with random delays`, async () => {
    check(fixture, await replay(fixture, { fromCheckpoint: true, delays: true }));
  });
}
