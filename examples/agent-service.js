// The agent-service graph of seed 004: LLM node -> router -> tools node ->
// LLM node ... -> END, with human approval (HiTL) before send_email.
//
//   START -> llm -> (tool calls?) -> tools -> llm -> ... -> END
//
// The run pauses for approval; its checkpoint goes through JSON (as it would
// through a database) and a new engine resumes it. Run:
//   node examples/agent-service.js [approve|reject]

import { GraphEngine, createLLMNode, createToolsNode, routeOnToolCalls, approve, reject } from 'edgegraph';
import { llmConfig } from './llm-config.js';

export const outbox = [];

/** The tools, with send_email writing to `box`. */
export function agentTools(box = outbox) {
  return [
  {
    name: 'search_knowledge_base',
    description: 'Search the support knowledge base',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    run: ({ query }) => ({ query, articles: [{ id: 'kb-17', title: 'Resetting a password', summary: 'Use the "Forgot password" link; links expire after 1 hour.' }] }),
  },
  {
    name: 'send_email',
    description: 'Send an email (a human approves it first)',
    parameters: { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } }, required: ['to', 'subject', 'body'] },
    needsApproval: true,
    run: (email) => { box.push(email); return { sent: true, to: email.to }; },
  },
  ];
}

/** The offline simulator's policy: search, then email, then confirm. */
export function offline({ messages }) {
  const last = messages.at(-1);
  if (last.role === 'user') return { content: null, toolCalls: [{ name: 'search_knowledge_base', arguments: { query: last.content } }] };
  if (last.role === 'tool' && last.content.includes('articles')) {
    return { content: null, toolCalls: [{ name: 'send_email', arguments: { to: 'support@example.com', subject: 'Password reset help', body: 'Use the "Forgot password" link; it expires after 1 hour (kb-17).' } }] };
  }
  if (last.role === 'tool' && last.content.startsWith('The user rejected')) return 'Understood: I did not send the email.';
  return 'I sent the email to support@example.com with the reset instructions.';
}

/** The graph, talking to `llm` (a createChatClient config). */
export function agentServiceDefinition(llm, box = outbox) {
  const tools = agentTools(box);
  return {
    nodes: {
      llm: createLLMNode({ llm, tools, systemPrompt: 'You are a helpful support assistant. Use the tools.' }),
      tools: createToolsNode({ tools }),
    },
    edges: { llm: routeOnToolCalls('tools'), tools: 'llm' },
    entryPoint: 'llm',
  };
}

const { llm, label } = llmConfig(offline);

export function createEngine() {
  return new GraphEngine(agentServiceDefinition(llm), { maxSteps: 12 });
}

if (globalThis.process?.argv && import.meta.url === `file://${process.argv[1]}`) {
  const decision = process.argv[2] === 'reject' ? reject('do not email support today') : approve();
  const show = (e) => {
    if (e.type === 'node_start') console.log(`-> ${e.node}`);
    if (e.type === 'tool_call') console.log(`   tool ${e.name}(${JSON.stringify(e.arguments)})`);
  };
  console.log(`edgegraph example: agent service with approval (seed 004)\nmodel: ${label}\n`);
  const paused = await createEngine().execute({ messages: [{ role: 'user', content: 'My customer cannot reset their password. Email support about it.' }] }, { onEvent: show });
  console.log(`\nstatus: ${paused.status}`);
  console.log(`approval needed: ${JSON.stringify(paused.state.pendingAskUser, null, 2)}`);
  const stored = JSON.stringify(paused.checkpoint); // as if written to a database
  console.log(`\n(checkpoint: ${stored.length} bytes; resuming in a new engine with ${decision.decision})\n`);
  const done = await createEngine().resume(JSON.parse(stored), decision, { onEvent: show });
  console.log(`\nstatus: ${done.status}`);
  console.log(`assistant: ${done.state.lastModelOutput}`);
  console.log(`outbox: ${JSON.stringify(outbox)}`);
  console.log(`tool calls: ${done.state.toolCalls.map((t) => `${t.name}:${t.status}`).join(', ')}`);
  if (done.status !== 'FINISHED') process.exitCode = 1;
}
