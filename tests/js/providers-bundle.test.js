// Provider code a user does not import stays out of their bundle: an app on
// `edgegraph` bundled with esbuild (code splitting, as Vite, Rollup and
// webpack do for dynamic imports) carries no provider but OpenAI chat in its
// main chunk, the others land in chunks fetched when a run names them; an app
// importing one provider object gets that one only. And that object, passed as
// llm.provider, talks to its server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createChatClient } from 'edgegraph';
import { anthropic } from 'edgegraph/providers/anthropic';
import { startAnthropicServer, message, textBlock } from './support/anthropic-server.js';

const root = new URL('../../', import.meta.url).pathname;
// A marker of each provider's code: a string only its translation holds.
const MARKS = { anthropic: 'content_block_start', gemini: 'functionDeclarations', responses: 'function_call_output' };

async function bundle(name, code) {
  const dir = join(root, 'build/providers-bundle', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.js'), code);
  await build({ entryPoints: [join(dir, 'app.js')], bundle: true, splitting: true, format: 'esm', outdir: join(dir, 'out'), platform: 'browser', external: ['./edgegraph.wasm', './encodings/*'], logLevel: 'silent', absWorkingDir: root });
  const files = readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.js'));
  return { main: readFileSync(join(dir, 'out/app.js'), 'utf8'), chunks: files.filter((f) => f !== 'app.js').map((f) => readFileSync(join(dir, 'out', f), 'utf8')) };
}

test('an app on edgegraph: no provider but OpenAI chat in its main chunk; each other one in a chunk of its own', async () => {
  const { main, chunks } = await bundle('core', "import { createAgentNode } from 'edgegraph';\nconsole.log(createAgentNode({ llm: { model: 'm' } }));\n");
  assert.ok(main.includes('/chat/completions'), 'OpenAI chat is built in');
  for (const [name, mark] of Object.entries(MARKS)) {
    assert.equal(main.includes(mark), false, `${name} is not in the main chunk`);
    assert.equal(chunks.filter((c) => c.includes(mark)).length, 1, `${name} is in one chunk`);
  }
});

test('an app importing edgegraph/providers/anthropic gets Anthropic only', async () => {
  const { main, chunks } = await bundle('anthropic', "import { anthropic } from 'edgegraph/providers/anthropic';\nconsole.log(anthropic);\n");
  const all = [main, ...chunks].join('\n');
  assert.ok(all.includes(MARKS.anthropic));
  assert.equal(all.includes(MARKS.gemini) || all.includes(MARKS.responses), false);
  assert.equal(all.includes('class GraphEngine'), false, 'and not the engine');
});

test('the imported provider object works as llm.provider', async () => {
  const s = await startAnthropicServer([{ reply: message([textBlock('from the object')]) }]);
  try {
    const r = await createChatClient({ provider: anthropic, model: 'claude-test', baseURL: s.baseURL }).chat({ messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(r.content, 'from the object');
    assert.equal(r.provider, 'anthropic');
  } finally { await s.close(); }
});

test('an unknown provider name is INVALID_OPTIONS listing the known ones', () => {
  assert.throws(() => createChatClient({ provider: 'antropic', model: 'm' }), (e) => e.code === 'INVALID_OPTIONS' && /'openai', 'openai-responses', 'anthropic', 'gemini'/.test(e.message) && /"antropic"/.test(e.message));
});

// Tracing and MCP tools load on first use too: an engine without a tracer and
// an app that never calls mcpTools() do not carry them; and an error thrown by
// the lazily loaded copy is still `instanceof EdgegraphError`.
test("tracing and MCP tools are chunks of their own, out of an app's main chunk", async () => {
  const TRACING = 'gen_ai.operation.name', MCP = 'structuredContent';
  const plain = await bundle('lazy', "import { GraphEngine, createAgentNode } from 'edgegraph';\nconsole.log(GraphEngine, createAgentNode);\n");
  assert.equal(plain.main.includes(TRACING), false, 'tracing is not in the main chunk');
  assert.equal(plain.chunks.filter((c) => c.includes(TRACING)).length, 1, 'tracing is in a chunk of its own');
  assert.equal(plain.main.includes(MCP), false, 'MCP is not in the main chunk');
  const mcp = await bundle('lazy-mcp', "import { mcpTools } from 'edgegraph';\nconsole.log(mcpTools);\n");
  assert.equal(mcp.main.includes(MCP), false, 'MCP is not in the main chunk');
  assert.equal(mcp.chunks.filter((c) => c.includes(MCP)).length, 1, 'MCP is in a chunk of its own');
});

test("an error from a module loaded on first use is an EdgegraphError of the package's class", async () => {
  const { mcpTools, EdgegraphError, LLMError } = await import('edgegraph');
  const e = await mcpTools({ listTools: async () => { throw new Error('connection refused'); }, callTool: async () => ({}) }, {}).catch((x) => x);
  assert.equal(e.code, 'MCP_ERROR');
  assert.ok(e instanceof EdgegraphError);
  assert.equal(e instanceof LLMError, false, 'the brand does not make it a subclass');
  assert.equal(new Error('x') instanceof EdgegraphError, false);
});
