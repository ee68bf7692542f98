// A realistic program against the hand-written declarations; `make
// typecheck` compiles it with strict settings.
import { GraphEngine, GraphBuilder, createEndNode, EdgegraphError, InMemoryCache, cachedCall, clearNodeCache, currentNodeContext, type IGraphState, type GraphNode, type GraphEvent } from '../../js/index.js';

const classify: GraphNode = (state) => ({ data: { route: state.messages.length > 1 ? 'long' : 'short' } });
const reply: GraphNode = async (state, engine, ctx) => {
  void engine; void ctx.taskId;
  const here: string | undefined = currentNodeContext()?.node;   // a helper's way to the same context
  void here;
  return { messages: [{ role: 'assistant', content: `seen ${state.messages.length}` }], logs: ['replied'] };
};

const definition = new GraphBuilder()
  .addNode('classify', classify)
  .addNode('reply', reply)
  .addNode('end', createEndNode())
  .addConditionalEdge('classify', { path: 'data.route', cases: { long: 'reply' }, default: 'end' })
  .addEdge('reply', 'end')
  .setEntryPoint('classify')
  .build();

async function main(): Promise<void> {
  const engine = new GraphEngine(definition, { maxSteps: 10 }, { model: 'gpt-4o-mini', apiKey: 'sk-test' });
  const controller = new AbortController();
  const result = await engine.execute({ messages: [{ role: 'user', content: 'hi' }] }, {
    signal: controller.signal,
    onEvent: (e: GraphEvent) => { if (e.type === 'node_end') console.log(e.node, e.durationMs.toFixed(1)); },
  });
  const state: IGraphState = result.state;
  if (result.status === 'PAUSED' && result.checkpoint) {
    const resumed = await engine.resume(result.checkpoint, { role: 'user', content: 'yes' });
    console.log(resumed.status);
  }
  if (result.error instanceof EdgegraphError) console.log(result.error.code, result.error.node);
  for await (const event of engine.stream({ messages: [] })) if (event.type === 'run_end') console.log(event.status);
  console.log(state.stepCount, engine.toMermaid());
  engine.dispose();
}
void main;

import { StateManager, send, type GraphState } from '../../js/index.js';
const manager = new StateManager({ 'scratch.messages': 'concat', 'scratch.best': (a: number, b: number) => Math.max(a, b) });
const s0: GraphState<{ prompt: string }> = manager.initialize({ prompt: 'Hello' });
const s1 = manager.updateScratch(s0, { messages: ['first'] });
const merged = manager.mergeParallelBranches(s1, [manager.recordNodeVisit(s1, 'a')]);
console.log(merged.input.prompt, send('worker', { job: 1 }).node);
const withPolicies = new GraphEngine<IGraphState>({
  nodes: {
    fetch: { handler: async (_s, _e, ctx) => ({ data: { attempt: ctx.attempt, item: ctx.arg } }), retry: { attempts: 3, backoffMs: 50 }, timeoutMs: 1000, onError: 'fallback' },
    fallback: () => ({ logs: ['fallback'] }),
    child: { kind: 'subgraph', graph: { nodes: { x: () => ({}) }, edges: { x: '__end__' }, entryPoint: 'x' }, output: () => ({ logs: ['child done'] }) },
  },
  edges: { fetch: { map: 'data.items', to: 'child' }, fallback: '__end__', child: '__end__' },
  entryPoint: 'fetch',
});
void withPolicies;

import { ChatHistoryManager, type Message } from '../../js/index.js';
import { loadEncoding } from '../../js/tokenizer.js';
async function history(): Promise<void> {
  const enc = await loadEncoding('o200k_base');
  const h = new ChatHistoryManager({ maxContextTokens: 4000, tokenizer: enc, onWarning: (w) => console.log(w.tokens) });
  h.addSystemPrompt('be brief');
  const id: string = h.addMessage({ role: 'user', content: 'hi' });
  h.editMessage(id, [{ type: 'text', text: 'hello' }]);
  const trimmed: Message[] = h.getTrimmedHistory();
  const engine = new GraphEngine<IGraphState>({ nodes: { a: (s, e) => ({ data: { n: e.getMessagesForLLM(s).length } }) }, edges: { a: '__end__' }, entryPoint: 'a' }, { maxContextTokens: 2000, tokenizer: enc });
  engine.addMessage({ role: 'user', content: 'queued' });
  console.log(trimmed.length, h.lastTrim?.overBudget, enc.countText('x'));
}
void history;

import { createAgentNode, createChatClient, approve, reject, type ToolDefinition } from '../../js/index.js';
import { createScriptedFetch } from '../../js/testing.js';
async function agents(): Promise<void> {
  const weather: ToolDefinition<{ city: string }> = { name: 'weather', parameters: { type: 'object' }, run: ({ city }) => ({ city }), needsApproval: (a) => a.city === 'Mars' };
  const client = createChatClient({ model: 'offline', fetch: createScriptedFetch(() => 'hi') });
  const r = await client.chat({ messages: [{ role: 'user', content: 'x' }], onToken: (t) => void t });
  const agent = createAgentNode({ llm: client, mode: 'react', tools: [weather], agentInfo: { name: 'A' } });
  const engine = new GraphEngine<IGraphState>({ nodes: { agent }, edges: { agent: '__end__' }, entryPoint: 'agent' });
  const paused = await engine.execute({ messages: [{ role: 'user', content: 'hi' }] });
  if (paused.checkpoint) await engine.resume(paused.checkpoint, Math.random() > 0.5 ? approve() : reject('no'));
  console.log(r.usage?.total_tokens);
}
void agents;

import { MemoryStore, Checkpointer, kvStore, eventStreamResponse, readServerSentEvents } from '../../js/index.js';
async function threads(): Promise<void> {
  const engine = new GraphEngine<IGraphState>({ nodes: { a: () => ({}) }, edges: { a: '__end__' }, entryPoint: 'a' }, { checkpointer: new Checkpointer(new MemoryStore(), { snapshotEvery: 20 }) });
  await engine.execute({}, { threadId: 't' });
  const [latest] = await engine.getStateHistory('t');
  await engine.resume({ threadId: 't', checkpointId: latest.checkpointId });
  const now = await engine.getState('t');
  const storage = new Map<string, string>();
  const store = kvStore({ get: async (k) => storage.get(k), put: async (k, v) => storage.set(k, v), delete: async (k) => storage.delete(k), list: async ({ prefix }) => [...storage.keys()].filter((k) => k.startsWith(prefix)) });
  for await (const e of readServerSentEvents(eventStreamResponse(engine.stream({}, { threadId: 'u' })))) console.log(e.type);
  console.log(now?.state.stepCount, store);
}
void threads;

// The pause payload narrows on `type`: an agent's tool approval has its calls, a question its text.
import type { PendingAskUser, ToolApprovalRequest } from '../../js/index.js';
function describePause(p: IGraphState['pendingAskUser']): string[] {
  if (p?.type === 'tool_approval') {
    const request: ToolApprovalRequest = p;
    return request.toolCalls.map((call) => `${call.name} ${call.id}`);
  }
  if (p?.type === 'question') return [p.question.trim()];
  return p ? Object.keys(p) : [];
}
const ownPause: PendingAskUser = { kind: 'confirm', text: 'sure?' };   // a node's own payload: any object
// @ts-expect-error `type` is edgegraph's: 'tool_approval' or 'question'
const clash: PendingAskUser = { type: 'confirm' };
console.log(describePause(ownPause), clash);

// Threads that hold: exclusive stores, SQL stores, retention, history pages.
import { SqlStore, doSqlStore, d1Store, sqliteStore, type CheckpointInfo, type ThreadTask } from '../../js/index.js';
async function lastingThreads(sql: { exec(q: string, ...b: unknown[]): { toArray(): unknown[] } }): Promise<void> {
  const engine = new GraphEngine<IGraphState>({ nodes: { a: () => ({}) }, edges: { a: '__end__' }, entryPoint: 'a' }, { checkpointer: new Checkpointer(doSqlStore(sql), { keepLast: 50, keepFor: 86_400_000, leaseMs: 60_000 }) });
  await engine.execute({}, { threadId: 't' });
  await engine.resume({ threadId: 't' }, undefined, { recover: true });
  const page: CheckpointInfo<IGraphState>[] = await engine.getStateHistory('t', { limit: 10, before: 100, values: true });
  const tasks: ThreadTask[] | undefined = (await engine.getState('t'))?.tasks;
  const edited: true | undefined = page[0]?.update;
  console.log(page[0]?.values?.stepCount, tasks?.[0]?.writes, edited);
  await engine.deleteThread('t');
  const stores: SqlStore[] = [sqliteStore('threads.sqlite'), d1Store({ prepare: () => ({ bind: () => ({ all: async () => ({ results: [] }), run: async () => ({}) }) }) })];
  console.log(await stores[0].create('k', 'v'), new MemoryStore().create('k', 'v'));
  const written: boolean = new MemoryStore().createNow('k', 'v');
  console.log(written);
}
void lastingThreads;

// Providers: by name (loaded on first use) or as an imported object; an AI SDK model by its shape; usage in edgegraph's types.
import { anthropic } from '../../js/provider-anthropic.js';
import type { RunUsage, ModelCallUsage, LanguageModelLike, LLMError } from '../../js/index.js';
async function providers(model: LanguageModelLike): Promise<void> {
  const claude = createChatClient({ provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'k', maxTokens: 1024 });
  const gem = createChatClient({ provider: 'gemini', model: 'gemini-2.5-flash', apiKey: 'k' });
  const own = createChatClient({ provider: anthropic, model: 'claude-sonnet-4-5' });
  const reply = await claude.chat({ messages: [{ role: 'user', content: 'hi' }], responseFormat: { name: 'out', schema: { type: 'object' } } });
  const counts: number = (reply.tokens?.inputTokens ?? 0) + (reply.tokens?.cachedTokens ?? 0);
  const fromSdk = await createChatClient(model).chat({ messages: [{ role: 'user', content: 'hi' }] });
  const agent = createAgentNode({ llm: model });
  const r = await new GraphEngine<IGraphState>({ nodes: { agent }, edges: { agent: '__end__' }, entryPoint: 'agent' }).execute({});
  const usage: RunUsage = r.usage;
  const first: ModelCallUsage | undefined = usage.calls[0];
  const failed = r.error?.cause as LLMError | undefined;
  console.log(gem.provider, own.model, counts, fromSdk.provider, first?.node, usage.totalTokens, failed?.provider);
}
void providers;
// A Standard Schema tool: run() gets the schema's output type (Zod here), checked by tsc.
import * as z from 'zod';
import { tool } from '../../js/index.js';
const zodTool = tool({ name: 'forecast', parameters: z.object({ city: z.string(), days: z.number().default(1) }), run: ({ city, days }) => `${city.toUpperCase()} ${days.toFixed(0)}` });
// @ts-expect-error `town` is not in the schema
tool({ name: 'bad', parameters: z.object({ city: z.string() }), run: ({ town }) => town });
console.log(zodTool.name);
const structuredAgent = createAgentNode({ llm: { model: 'm' }, responseFormat: { name: 'review', schema: z.object({ score: z.number() }) } });
void structuredAgent;
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpTools } from '../../js/index.js';
async function mcp(): Promise<void> {
  const client = new Client({ name: 'c', version: '1' });
  const tools = await mcpTools(client, { needsApproval: (name) => name.startsWith('send'), prefix: 'mail_' });
  createAgentNode({ llm: { model: 'm' }, tools });
}
void mcp;
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { trace, context } from '@opentelemetry/api';
async function traced(): Promise<void> {
  const tracer = new BasicTracerProvider().getTracer('app');
  const engine = new GraphEngine({ nodes: { a: () => ({}) }, edges: { a: '__end__' }, entryPoint: 'a' }, { tracer, traceContent: false });
  const span = tracer.startSpan('request');
  await engine.execute({}, { traceContext: trace.setSpan(context.active(), span) });
  span.end();
}
void traced;
// Redeploys: a version, a migration of the state, and a renamed node.
const redeployed = new GraphEngine({
  version: 2,
  migrate: (state, fromVersion) => (fromVersion < 2 ? { ...state, data: { ...state.data, migrated: true } } : state),
  renamedNodes: { ask: 'confirm' },
  nodes: { confirm: () => ({ pendingAskUser: { question: 'ok?' } }) },
  edges: { confirm: '__end__' },
  entryPoint: 'confirm',
});
void redeployed;
// Interrupts and commands (issue 15).
import { Command, interrupt, isGraphInterrupt, send as sendTo } from '../../js/index.js';
import type { Interrupt, ResumeCommand } from '../../js/index.js';
async function interrupts(): Promise<void> {
  const engine = new GraphEngine<IGraphState>({
    nodes: {
      ask: (state, _engine, context) => {
        const answer = context.interrupt<string>({ question: 'ok?' });
        const tenant = context.configurable?.tenant;
        return { data: { answer: answer.toUpperCase(), tenant, global: interrupt<number>('n?') + 1 } };
      },
      route: { handler: () => new Command<IGraphState>({ update: { logs: ['x'] }, goto: ['done', sendTo('done', 1)] }), goto: ['done'] },
      up: () => new Command({ graph: Command.PARENT, goto: 'done' }),
      done: { handler: () => ({}), join: ['route', 'up'], defer: false },
    },
    edges: { ask: 'route', route: '__end__', up: 'done', done: '__end__' },
    entryPoint: 'ask',
  });
  const paused = await engine.execute({}, { configurable: { tenant: 't1' } });
  const pending: Interrupt[] = paused.interrupts ?? [];
  const byId: ResumeCommand = { resume: Object.fromEntries(pending.map((i) => [i.id, 'yes'])) };
  await engine.resume(paused.checkpoint ?? '', byId);
  await engine.resume(paused.checkpoint ?? '', new Command({ resume: 'yes', update: { data: { x: 1 } }, goto: 'done' }));
  await engine.resume(paused.checkpoint ?? '', 'yes');
  try { interrupt('outside'); } catch (e) { if (isGraphInterrupt(e)) console.log(e.interrupts[0].id); }
}
void interrupts;
async function parity(): Promise<void> {
  const engine = new GraphEngine<IGraphState>({ nodes: { a: (s) => s, b: () => ({}) }, edges: { a: 'b', b: '__end__' }, entryPoint: 'a' }, { interruptBefore: ['b'], checkpointer: new MemoryStore() });
  await engine.execute({}, { threadId: 'p', interruptAfter: ['a'], configurable: { user: 'ann' } });
  const { state, checkpointId } = await engine.updateState({ threadId: 'p' }, { data: { x: 1 } }, 'a');
  const fromCheckpoint = await engine.updateState('{}', null);
  await engine.updateState({ threadId: 'p' }, null, undefined, { restartTasks: true });
  console.log(state.stepCount, checkpointId, fromCheckpoint.checkpoint.length);
}
void parity;
async function concurrency(): Promise<void> {
  const engine = new GraphEngine<IGraphState>({ nodes: { a: async (s, e, ctx) => { await fetch('http://x', { signal: ctx.signal }); return {}; } }, edges: { a: '__end__' }, entryPoint: 'a' }, { retry: { attempts: 3, backoffMs: 10, retryOn: (error) => !(error instanceof TypeError) } });
  await engine.execute({}, { maxConcurrency: 4 });
}
void concurrency;

// Stream modes (docs/streaming.md): one mode's chunks, a list's [mode, chunk], subgraphs' namespaces.
import { STREAM_MODES, type StreamMode, type UpdatesChunk, type MessagesChunk } from '../../js/index.js';
async function streamModes(engine: GraphEngine): Promise<void> {
  const modes: readonly StreamMode[] = STREAM_MODES;
  void modes;
  const writing: GraphNode = (state, engine, { writer }) => { writer({ progress: 1 }); return {}; };
  void writing;
  for await (const state of engine.stream({}, { streamMode: 'values' })) console.log(state.stepCount);
  const updates = engine.stream({}, { streamMode: 'updates', threadId: 't' });
  for await (const chunk of updates) {
    const u: UpdatesChunk<IGraphState> = chunk;
    if (u.__interrupt__) console.log(u.__interrupt__[0].id, u.__interrupt__[0].value);
    else for (const [node, update] of Object.entries(u)) if (!Array.isArray(update)) console.log(node, update.data);
  }
  console.log((await updates.result).status);
  for await (const [mode, chunk] of engine.stream({}, { streamMode: ['messages', 'custom'] })) {
    if (mode === 'messages') { const [message, meta]: MessagesChunk = chunk; console.log(meta.node, message.content); }
    else console.log(chunk);
  }
  for await (const [ns, mode, chunk] of engine.streamResume({ threadId: 't' }, undefined, { streamMode: ['tasks', 'checkpoints'], subgraphs: true })) {
    if (mode === 'tasks' && 'result' in chunk) console.log(ns.join('/'), chunk.name, chunk.error?.message);
    if (mode === 'checkpoints') console.log(chunk.checkpointId, chunk.next, chunk.values.stepCount);
  }
  for await (const d of engine.stream({}, { streamMode: 'debug' })) if (d.type === 'checkpoint') console.log(d.step, d.payload.superstep);
}
void streamModes;
async function nodeCaching(): Promise<void> {
  const cache = new InMemoryCache();
  const engine = new GraphEngine<IGraphState>({
    nodes: { lookup: { handler: (s) => ({ data: { q: s.data.q } }), cache: { ttlMs: 60_000, key: (s, ctx) => ctx.arg ?? s.data.q } } },
    edges: { lookup: '__end__' },
    entryPoint: 'lookup',
  }, { cache });
  await engine.execute({ data: { q: 'x' } });
  const { value, cached } = await cachedCall(cache, { node: 'n', key: { q: 1 }, ttl: 5 }, async () => 42);
  const n: number = value;
  console.log(n, cached);
  await clearNodeCache(cache, ['lookup']);
  await engine.updateState({ threadId: 't' }, null, '__end__');
}
void nodeCaching;
