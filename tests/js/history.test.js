// ChatHistoryManager (seed IChatHistoryManager) and the engine's history
// (addMessage, getMessagesForLLM), on the real .wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatHistoryManager, GraphEngine } from 'edgegraph';
import { loadEncoding } from 'edgegraph/tokenizer';
import { disposeAfter } from './support/dispose.js';

test('the seed example: system prompt first, messages in order, budget reported', (t) => {
  const history = disposeAfter(t, new ChatHistoryManager({ maxContextTokens: 1000 }));
  history.addSystemPrompt('Você é um assistente especializado em programação.');
  const id = history.addMessage({ role: 'user', content: 'Como fazer um loop?' });
  history.addMessage({ role: 'assistant', content: 'Use for ou while...' });
  const messages = history.getTrimmedHistory();
  assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'assistant']);
  assert.equal(messages[1].id, id);
  assert.ok(history.getRemainingBudget() > 900 && history.getRemainingBudget() < 1000);
});

test('the API contract: validation, in-place system prompt, copies, edit/delete/get/import', (t) => {
  const h = disposeAfter(t, new ChatHistoryManager({ maxContextTokens: 500 }));
  assert.throws(() => h.addMessage({ role: 'user', content: '' }), (e) => e.code === 'INVALID_MESSAGE');
  assert.throws(() => h.addMessage({ role: 'wizard', content: 'x' }), (e) => e.code === 'INVALID_MESSAGE' && /role/.test(e.message));
  h.addMessage({ role: 'user', content: 'first', id: 'u1' });
  h.addSystemPrompt('A');
  const systemId = h.exportHistory()[0].id;
  h.addSystemPrompt('B');
  const all = h.exportHistory();
  assert.deepEqual(all.map((m) => m.content), ['B', 'first']);
  assert.equal(all[0].id, systemId, 'replaced in place');
  all[1].content = 'mutated';
  assert.equal(h.getMessageById('u1').content, 'first', 'exports are copies');
  h.editMessage('u1', [{ type: 'text', text: 'edited' }, { type: 'image_url', image_url: { url: 'data:,', detail: 'low' } }]);
  assert.deepEqual(h.getMessageById('u1').content[0], { type: 'text', text: 'edited' });
  assert.throws(() => h.editMessage('nope', 'x'), (e) => e.code === 'MESSAGE_NOT_FOUND');
  assert.equal(h.getMessageById('nope'), undefined);
  h.addMessage({ role: 'assistant', content: 'a', id: 'a1' });
  h.deleteMessageRange('u1', 'a1');
  assert.deepEqual(h.exportHistory().map((m) => m.content), ['B']);
  assert.throws(() => h.importHistory(null), (e) => e.code === 'INVALID_MESSAGE');
  assert.throws(() => h.importHistory([{ role: 'user', content: 'ok' }, { role: 'user' }]), (e) => e.code === 'INVALID_MESSAGE' && /message 1/.test(e.message));
  h.importHistory([{ role: 'system', content: 'Você é útil' }, { role: 'user', content: 'Olá' }]);
  assert.deepEqual(h.getTrimmedHistory().map((m) => m.content), ['Você é útil', 'Olá']);
  h.clearHistory();
  assert.deepEqual(h.exportHistory().map((m) => m.content), ['Você é útil']);
});

test('trimming: oldest first, tool groups whole, last user kept, over budget is a flag and a warning', (t) => {
  const warnings = [];
  const h = disposeAfter(t, new ChatHistoryManager({ maxContextTokens: 60, onWarning: (w) => warnings.push(w) }));
  h.addSystemPrompt('be brief');
  for (let i = 0; i < 10; i++) {
    h.addMessage({ role: 'user', content: `question number ${i}` });
    h.addMessage({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'lookup', arguments: `{"q":${i}}` } }] });
    h.addMessage({ role: 'tool', tool_call_id: `c${i}`, content: `result ${i}` });
    h.addMessage({ role: 'assistant', content: `answer ${i}` });
  }
  const kept = h.getTrimmedHistory();
  assert.equal(kept[0].content, 'be brief');
  assert.equal(kept.at(-1).content, 'answer 9');
  assert.ok(h.lastTrim.tokens <= 60 && h.lastTrim.dropped > 0 && !h.lastTrim.overBudget);
  // Every tool result has its call right before it; every call has all its results.
  for (let i = 0; i < kept.length; i++) {
    if (kept[i].role === 'tool') assert.ok(kept.slice(0, i).some((m) => m.tool_calls?.some((c) => c.id === kept[i].tool_call_id)), 'no orphan result');
    for (const call of kept[i].tool_calls ?? []) assert.ok(kept.some((m) => m.tool_call_id === call.id), 'no call without its result');
  }
  assert.ok(kept.some((m) => m.content === 'question number 9'));
  const tiny = disposeAfter(t, new ChatHistoryManager({ maxContextTokens: 5, onWarning: (w) => warnings.push(w) }));
  tiny.addSystemPrompt('a system prompt that is longer than the whole budget');
  tiny.addMessage({ role: 'user', content: 'and a question' });
  assert.deepEqual(tiny.getTrimmedHistory().map((m) => m.role), ['system', 'user']);
  assert.equal(tiny.lastTrim.overBudget, true);
  assert.deepEqual(warnings.map((w) => w.type), ['over_budget']);
});

test('every OpenAI field and multimodal part is kept', (t) => {
  const h = disposeAfter(t, new ChatHistoryManager({ maxContextTokens: 5000 }));
  const messages = [
    { role: 'user', name: 'ann', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'high' } }] },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'vision', arguments: '{"x":1}' } }], refusal: null },
    { role: 'tool', tool_call_id: 'call_1', name: 'vision', content: 'a cat' },
  ];
  for (const m of messages) h.addMessage(m);
  const out = h.getTrimmedHistory().map(({ id, ...m }) => m);
  assert.deepEqual(out, messages);
});

test('with an exact encoding, counts are exact BPE counts', async (t) => {
  const enc = await loadEncoding('o200k_base');
  const h = disposeAfter(t, new ChatHistoryManager({ maxContextTokens: 10000, tokenizer: enc }));
  h.addMessage({ role: 'user', content: 'hello world' }); // 3 + 2
  assert.equal(h.getRemainingBudget(), 10000 - 3 - 5);
});

test('engine: getMessagesForLLM trims the run state; addMessage joins the next run; checkpoints restore the history exactly', async (t) => {
  const seen = [];
  const definition = {
    nodes: {
      chat: (state, engine) => {
        const view = engine.getMessagesForLLM(state);
        seen.push(view.map((m) => m.content));
        return { messages: [{ role: 'assistant', content: `reply ${state.messages.length}` }], shouldPause: true };
      },
    },
    edges: { chat: 'chat2' },
    entryPoint: 'chat',
  };
  definition.nodes.chat2 = (state, engine) => { seen.push(engine.getMessagesForLLM().map((m) => m.content)); return {}; };
  definition.edges.chat2 = '__end__';
  const engine = disposeAfter(t, new GraphEngine(definition, { maxContextTokens: 40 }));
  engine.addMessage({ role: 'system', content: 'sys' });
  for (let i = 0; i < 8; i++) engine.addMessage({ role: i % 2 ? 'assistant' : 'user', content: `old message ${i}` });
  assert.ok(engine.getMessagesForLLM().length < 9, 'trimmed before any run');
  const paused = await engine.execute({ messages: [] });
  assert.equal(paused.state.messages.length, 10, 'added messages are in the run state');
  const restored = disposeAfter(t, new GraphEngine(definition, { maxContextTokens: 40 }));
  const done = await restored.resume(paused.checkpoint, { role: 'user', content: 'next question' });
  assert.equal(done.status, 'FINISHED');
  const [first, second] = seen;
  assert.equal(first[0], 'sys');
  assert.equal(second[0], 'sys');
  assert.equal(second.at(-1), 'next question');
  assert.ok(second.includes('reply 9'));
  assert.deepEqual(restored.getMessagesForLLM(done.state).map((m) => m.content), second, 'the same history from the final state');
});
