// agent.js: agent nodes. An agent node calls an OpenAI-compatible LLM with
// the trimmed history and a system prompt built from agentInfo; in react
// mode it loops LLM -> tools -> LLM until a final answer or maxToolRounds.
// Tools marked needsApproval pause the run with the pending calls; resume
// with approve(), reject(reason) or editArguments(args) continues the loop,
// also after the state went through JSON and another process.

import { createChatClient } from './llm.js';
import { ToolBox, toolsForModel } from './tools.js';
import { END } from './definition.js';
import { EdgegraphError } from './errors.js';
import { responseFormat as structured } from './structured-output.js';

// A model call, as a span when the run is traced (ctx.trace comes from tracing.js).
const tracedChat = (ctx, client, request) => (ctx?.trace ? ctx.trace.chat(client, request) : client.chat(request));

/** Declare a tool (returned as given; createAgentNode checks it). In TypeScript its run() gets typed arguments. */
export const tool = (definition) => definition;

/** Approval decisions for engine.resume(saved, decision). */
export const approve = (toolCallId) => ({ decision: 'approve', ...(toolCallId ? { toolCallId } : {}) });
export const reject = (reason = 'rejected', toolCallId) => ({ decision: 'reject', reason, ...(toolCallId ? { toolCallId } : {}) });
export const editArguments = (args, toolCallId) => ({ decision: 'edit', arguments: args, ...(toolCallId ? { toolCallId } : {}) });

function systemPrompt({ agentInfo = {}, tools, mode, extra }) {
  const lines = [];
  if (agentInfo.name) lines.push(`You are ${agentInfo.name}.`);
  if (agentInfo.goal) lines.push(`Your goal: ${agentInfo.goal}`);
  if (agentInfo.backstory) lines.push(agentInfo.backstory);
  if (mode === 'react' && tools.length) {
    lines.push('', 'You can call these tools; call them when they help, then answer the user:');
    for (const t of tools) lines.push(`- ${t.name}: ${t.description ?? ''}`);
  }
  if (extra) lines.push('', extra);
  return lines.join('\n').trim();
}

/**
 * @param {{ llm: object, mode?: 'chat'|'react', agentInfo?: { name?: string, goal?: string, backstory?: string },
 *   tools?: Array<{ name: string, description?: string, parameters?: object, run: Function, needsApproval?: boolean | ((args: any) => boolean) }>,
 *   systemPrompt?: string, maxToolRounds?: number, stream?: boolean, request?: object }} config
 */
export function createAgentNode(config) {
  const { llm, mode = 'react', agentInfo, tools = [], maxToolRounds = 8, stream = true, request = {}, responseFormat } = config ?? {};
  const format = responseFormat ? structured(responseFormat) : null;
  if (mode !== 'chat' && mode !== 'react') throw new EdgegraphError('INVALID_OPTIONS', `agent mode must be 'chat' or 'react', not '${mode}'`);
  const box = new ToolBox(tools);
  let client = null; // built on first use, so a definition can be made before keys are at hand
  const prompt = systemPrompt({ agentInfo, tools, mode, extra: config.systemPrompt });

  return async function agentNode(state, engine, ctx = {}) {
    client ??= createChatClient(llm ?? engine?.llmConfig);
    const clearApproval = state.approval ? { approval: null } : {};

    // Back from a pause for approval: the last assistant message holds calls not yet answered.
    const open = openCalls(state.messages);
    if (open && state.pendingAskUser === undefined) {
      const settled = await settleCalls(box, open, state, ctx);
      return settled.pendingAskUser ? settled : { ...settled, nextNodeOverride: ctx.node };
    }

    const history = engine.getMessagesForLLM(state);
    const system = history.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
    const systemText = [prompt, system].filter(Boolean).join('\n\n');
    // No instructions, no system message: an empty one is noise some providers reject.
    const conversation = [...(systemText ? [{ role: 'system', content: systemText }] : []), ...history.filter((m) => m.role !== 'system')];
    if (roundsSoFar(state.messages) >= maxToolRounds) {
      return { lastModelOutput: state.lastModelOutput ?? null, logs: [`${ctx.node}: stopped after ${maxToolRounds} tool rounds`], ...clearApproval };
    }
    const reply = await tracedChat(ctx, client, {
      ...request,
      ...(format ? { responseFormat: format.request } : {}),
      messages: conversation,
      tools: mode === 'react' && tools.length ? box.forModel : undefined,
      signal: ctx.signal,
      stream,
      onToken: ctx.emit ? (text) => ctx.emit({ type: 'llm_token', text }) : undefined,
    });
    ctx.recordUsage?.(reply);
    const calls = reply.message.tool_calls ?? [];
    if (mode === 'chat' || calls.length === 0) {
      const parsed = format ? { structuredResponse: await format.parse(reply.content, ctx.node) } : {};
      return { messages: [reply.message], lastModelOutput: reply.content, ...parsed, ...(reply.usage ? { metadata: { lastUsage: reply.usage } } : {}), ...clearApproval };
    }
    if (box.waiting(calls).length) return { messages: [reply.message], ...box.pause(calls, ctx.node, clearApproval) };
    return recordRound([reply.message], await box.answer(calls, ctx, state, undefined), ctx, clearApproval);
  };
}

/** The calls of the last assistant message that no tool message answers yet; null when none is open. */
function openCalls(messages = []) {
  const answered = new Set();
  let i = messages.length - 1;
  while (i >= 0 && messages[i].role === 'tool') answered.add(messages[i--].tool_call_id);
  const calls = messages[i]?.role === 'assistant' ? messages[i].tool_calls ?? [] : [];
  const open = calls.filter((c) => !answered.has(c.id));
  return open.length ? open : null;
}

/**
 * Back from a pause for approval: the open calls that need no decision, or
 * have one in state.approval, run now and their results are recorded; the
 * run pauses again for the others. So decisions can come one resume at a
 * time (approve('call_1'), later reject('no', 'call_2')), and a call that
 * ran is answered in the state and never runs again.
 */
async function settleCalls(box, open, state, ctx) {
  const waiting = box.waiting(open, state.approval);
  // No decision given (a plain resume), nothing runs: the run pauses again as it was.
  if (waiting.length && !state.approval) return box.pause(open, ctx.node);
  const outcomes = await box.answer(open.filter((c) => !waiting.includes(c)), ctx, state, state.approval);
  const records = outcomes.map((o) => o.record);
  // A call left to retry keeps its decision, and the node comes back for it.
  const after = outcomes.retry ? { nextNodeOverride: ctx.node } : state.approval ? { approval: null } : {};
  const done = { ...(records.length ? { messages: outcomes.map((o) => o.message), toolCalls: records, lastToolCall: records.at(-1) } : {}), ...after };
  return waiting.length ? { ...done, ...box.pause(waiting, ctx.node) } : done;
}

/**
 * Tools ran: their results are committed now, in a step of their own, and
 * the node comes back to itself for the next LLM call. So whatever fails
 * after (the next LLM call, a crash, an abort), a resume starts from the
 * recorded results and never runs those tools again.
 */
function recordRound(messages, outcomes, ctx, extra) {
  const records = outcomes.map((o) => o.record);
  return { messages: [...messages, ...outcomes.map((o) => o.message)], toolCalls: records, lastToolCall: records.at(-1), nextNodeOverride: ctx.node, ...extra };
}

/** Tool rounds already taken in this turn: assistant tool_calls messages since the last user message. */
function roundsSoFar(messages = []) {
  let rounds = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i].role !== 'user'; i--) {
    if (messages[i].role === 'assistant' && messages[i].tool_calls?.length) rounds++;
  }
  return rounds;
}

/**
 * A node that asks the user a question: it pauses with pendingAskUser, and
 * on resume(state, { role: 'user', content }) stores the answer in
 * state.data[answerKey] and goes on along its edges.
 */
export function createAskUserNode({ question, answerKey = 'answer' } = {}) {
  return (state, engine, ctx) => {
    const answer = ctx?.resumeInput;
    if (answer !== undefined && answer !== null) {
      return { data: { [answerKey]: typeof answer === 'object' ? answer.content : answer } };
    }
    const text = typeof question === 'function' ? question(state) : question;
    return {
      pendingAskUser: { type: 'question', node: ctx?.node, question: text },
      messages: [{ role: 'assistant', content: text }],
      nextNodeOverride: ctx?.node,
    };
  };
}

/**
 * One LLM call with the trimmed history (seed 004's "LLM node"): the reply,
 * with any tool calls, is appended to messages. Pair it with
 * routeOnToolCalls() and createToolsNode() for an explicit tool loop.
 */
export function createLLMNode({ llm, tools = [], systemPrompt, stream = true, request = {}, responseFormat } = {}) {
  const forModel = toolsForModel(tools);
  const format = responseFormat ? structured(responseFormat) : null;
  let client = null;
  return async (state, engine, ctx = {}) => {
    client ??= createChatClient(llm ?? engine?.llmConfig);
    const history = engine.getMessagesForLLM(state);
    const system = [systemPrompt, ...history.filter((m) => m.role === 'system').map((m) => m.content)].filter(Boolean).join('\n\n');
    const messages = [...(system ? [{ role: 'system', content: system }] : []), ...history.filter((m) => m.role !== 'system')];
    const reply = await tracedChat(ctx, client, { ...request, ...(format ? { responseFormat: format.request } : {}), messages, tools: tools.length ? forModel : undefined, signal: ctx.signal, stream, onToken: ctx.emit ? (text) => ctx.emit({ type: 'llm_token', text }) : undefined });
    ctx.recordUsage?.(reply);
    // A reply that calls tools is not the structured answer yet: that comes after the tools ran.
    const parsed = format && !reply.message.tool_calls?.length ? { structuredResponse: await format.parse(reply.content, ctx.node) } : {};
    return { messages: [reply.message], lastModelOutput: reply.content, ...parsed };
  };
}

/** A router: to `toolsNode` when the last message asks for tools, else to `end`. */
export function routeOnToolCalls(toolsNode = 'tools', end = END) {
  const router = (state) => (state.messages?.at(-1)?.tool_calls?.length ? toolsNode : end);
  return { router, targets: [toolsNode, end] };
}

/**
 * Run the tool calls of the last assistant message (seed 004's "tools
 * node"): validated arguments, concurrent calls, results in call order,
 * approval pauses for tools marked needsApproval.
 */
export function createToolsNode({ tools = [] } = {}) {
  const box = new ToolBox(tools);
  return async (state, engine, ctx = {}) => {
    const open = openCalls(state.messages);
    if (!open || state.pendingAskUser !== undefined) return {};
    return settleCalls(box, open, state, ctx);
  };
}
