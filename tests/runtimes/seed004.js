// seed004.js: seed 004's agent (examples/langgraph-agent.js, the LangGraph.js
// program with its import changed to edgegraph/langgraph) driven the same
// way in each runtime: the run pauses before send_email and its thread is
// written out as text; a fresh agent (another page, another request) reads it
// back and resumes with the human's decision. The program itself is unchanged:
// only this driver moves the MemorySaver's records from one agent to the next.
import { createAgent, decide } from './langgraph-agent.js';

const thread = { configurable: { thread_id: 'support-1' } };
const question = 'My customer cannot reset their password. Email support about it.';
const agentAt = (baseURL, outbox) => createAgent({ llm: { baseURL, apiKey: 'sk-test', model: 'gpt-4o-mini' }, outbox });

/** Runs until the approval; returns the paused thread as JSON text, with what the run showed. */
export async function pause(baseURL) {
  const outbox = [];
  const agent = agentAt(baseURL, outbox);
  await agent.invoke({ messages: [{ role: 'user', content: question }] }, thread);
  const state = await agent.getState(thread);
  const store = agent.checkpointer.store;
  const records = {};
  for (const key of await store.list()) records[key] = await store.get(key);
  return JSON.stringify({ next: state.next, interrupt: state.tasks[0].interrupts[0].value, sent: outbox.length, records });
}

/** A new agent over the thread `paused` wrote out, resumed with `decision`: its answer and what it sent. */
export async function resume(paused, baseURL, decision) {
  const outbox = [];
  const agent = agentAt(baseURL, outbox);
  for (const [key, value] of Object.entries(JSON.parse(paused).records)) await agent.checkpointer.store.put(key, value);
  const done = await agent.invoke(decide(decision), thread);
  return { answer: done.messages.at(-1).content, outbox };
}
