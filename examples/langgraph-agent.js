// Seed 004's agent graph written as a LangGraph.js program: LLM -> router ->
// tools -> LLM, with a human approving send_email (interrupt()), checkpoints in
// a MemorySaver, resumed with a Command. The LLM is any OpenAI-compatible
// server, over fetch. It runs on @langchain/langgraph as it is, and on
// edgegraph with one line changed:
//   import { ... } from 'edgegraph/langgraph';
// (tests/langgraph/agent-seed004.test.js runs this very file both ways).
//
// Messages: LangGraph hands nodes LangChain message objects, edgegraph/langgraph
// plain OpenAI-shaped ones; `wire()` below writes either as OpenAI's wire format.

import { StateGraph, MessagesAnnotation, START, END, MemorySaver, interrupt, Command } from '@langchain/langgraph';

const TOOLS = [
  { type: 'function', function: { name: 'search_knowledge_base', description: 'Search the support knowledge base', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } } },
  { type: 'function', function: { name: 'send_email', description: 'Send an email (a human approves it first)', parameters: { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } }, required: ['to', 'subject', 'body'] } } },
];

const ROLE = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool' };

/** A message (LangChain's or a plain one) in OpenAI's wire format. */
function wire(m) {
  const role = m.role ?? ROLE[typeof m._getType === 'function' ? m._getType() : m.type];
  const out = { role, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) };
  const calls = toolCalls(m);
  if (role === 'assistant' && calls.length) { out.tool_calls = calls; if (!out.content) out.content = null; }
  if (role === 'tool') out.tool_call_id = m.tool_call_id;
  return out;
}

/** An assistant message's tool calls as OpenAI's { id, type, function: { name, arguments } }. */
function toolCalls(m) {
  return (m.tool_calls ?? []).map((c) => (c.function ? c : { id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
}

/**
 * The agent graph. `llm`: { baseURL, apiKey, model }; `outbox` receives the emails sent.
 * @returns a compiled graph with a MemorySaver
 */
export function createAgent({ llm, outbox }) {
  const run = {
    search_knowledge_base: ({ query }) => ({ query, articles: [{ id: 'kb-17', title: 'Resetting a password', summary: 'Use the "Forgot password" link; links expire after 1 hour.' }] }),
    send_email: (email) => { outbox.push(email); return { sent: true, to: email.to }; },
  };

  async function callModel(state) {
    const messages = [{ role: 'system', content: 'You are a helpful support assistant. Use the tools.' }, ...state.messages.map(wire)];
    const response = await fetch(`${llm.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${llm.apiKey}` },
      body: JSON.stringify({ model: llm.model, messages, tools: TOOLS }),
    });
    if (!response.ok) throw new Error(`LLM error ${response.status}: ${await response.text()}`);
    const { message } = (await response.json()).choices[0];
    return { messages: [{ role: 'assistant', content: message.content ?? '', tool_calls: message.tool_calls ?? [] }] };
  }

  // The router: more tool calls go to the tools, an answer ends the run.
  const route = (state) => (toolCalls(state.messages.at(-1)).length ? 'tools' : END);

  function runTools(state) {
    const results = [];
    for (const call of toolCalls(state.messages.at(-1))) {
      const args = JSON.parse(call.function.arguments);
      if (call.function.name === 'send_email') {
        // Pauses the run; on resume the node runs again and this returns the decision.
        const decision = interrupt({ action: 'send_email', arguments: args });
        if (decision !== 'approve') { results.push({ role: 'tool', tool_call_id: call.id, content: `The user rejected the email: ${decision}` }); continue; }
      }
      results.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(run[call.function.name](args)) });
    }
    return { messages: results };
  }

  return new StateGraph(MessagesAnnotation)
    .addNode('llm', callModel)
    .addNode('tools', runTools)
    .addEdge(START, 'llm')
    .addConditionalEdges('llm', route, ['tools', END])
    .addEdge('tools', 'llm')
    .compile({ checkpointer: new MemorySaver() });
}

/** Answer a paused run: 'approve', or any other text to reject. */
export const decide = (decision) => new Command({ resume: decision });
