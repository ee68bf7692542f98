// Seed 004's agent graph as a LangGraph.js program (examples/langgraph-agent.js),
// run unchanged on @langchain/langgraph and, with its import changed to
// edgegraph/langgraph, on edgegraph, against the strict OpenAI server: the run
// pauses before send_email, a Command resumes it, the email goes out once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { startServer, reply, call } from '../js/support/openai-server.js';

const source = new URL('../../examples/langgraph-agent.js', import.meta.url);
const text = readFileSync(source, 'utf8');
// The same program with the one import changed, inside the package (edgegraph/langgraph resolves to itself).
const changed = new URL('../../build/langgraph-agent.edgegraph.js', import.meta.url);
mkdirSync(new URL('.', changed), { recursive: true });
writeFileSync(changed, text.replace("from '@langchain/langgraph'", "from 'edgegraph/langgraph'"));
assert.notEqual(readFileSync(changed, 'utf8'), text);

const programs = [['langgraph', source.href], ['edgegraph', changed.href]];

const email = { to: 'support@example.com', subject: 'Password reset help', body: 'Use the "Forgot password" link (kb-17).' };
const script = (final) => [
  { json: reply(null, [call('call_1', 'search_knowledge_base', { query: 'password reset' })]) },
  { json: reply(null, [call('call_2', 'send_email', email)]) },
  { json: reply(final) },
];

for (const [name, url] of programs) {
  for (const [decision, final] of [['approve', 'I sent the email.'], ['not today', 'Understood: no email.']]) {
    test(`${name}: seed 004 agent: pauses before send_email, resumes with Command({ resume: '${decision}' })`, async () => {
      const server = await startServer(script(final), { apiKey: 'sk-test' });
      try {
        const { createAgent, decide } = await import(url);
        const outbox = [];
        const agent = createAgent({ llm: { baseURL: server.baseURL, apiKey: 'sk-test', model: 'gpt-4o-mini' }, outbox });
        const config = { configurable: { thread_id: `support-${decision}` } };
        await agent.invoke({ messages: [{ role: 'user', content: 'My customer cannot reset their password. Email support about it.' }] }, config);
        const paused = await agent.getState(config);
        assert.deepEqual(paused.next, ['tools']);
        assert.equal(paused.tasks[0].interrupts[0].value.action, 'send_email');
        assert.deepEqual(paused.tasks[0].interrupts[0].value.arguments, email);
        assert.equal(outbox.length, 0);
        const done = await agent.invoke(decide(decision), config);
        assert.equal(done.messages.at(-1).content, final);
        assert.equal(outbox.length, decision === 'approve' ? 1 : 0);
        // Four requests... three: search, email, answer; each one OpenAI would accept (the server refuses others).
        assert.equal(server.requests.length, 3);
        const last = server.requests[2].body.messages;
        assert.equal(last.at(-1).role, 'tool');
        assert.equal(last.at(-1).tool_call_id, 'call_2');
      } finally {
        await server.close();
      }
    });
  }
}
