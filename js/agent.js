// agent.js: agent nodes. An agent node calls an OpenAI-compatible LLM with
// the trimmed history and a system prompt built from agentInfo; in react
// mode it loops LLM -> tools -> LLM until a final answer or maxToolRounds.
// Tools marked needsApproval pause the run with the pending calls; resume
// with approve(), reject(reason) or editArguments(args) continues the loop,
// also after the state went through JSON and another process.

import { createChatClient } from './llm.js';
import { validate } from './schema.js';
import { EdgegraphError } from './errors.js';

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

function checkTools(tools) {
  const seen = new Set();
  for (const t of tools) {
    if (!t || typeof t.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(t.name)) throw new EdgegraphError('INVALID_DEFINITION', `tool names must be 1-64 letters, digits, _ or - (got ${JSON.stringify(t?.name)})`);
    if (typeof t.run !== 'function') throw new EdgegraphError('INVALID_DEFINITION', `tool '${t.name}' needs a run(args, context) function`);
    if (seen.has(t.name)) throw new EdgegraphError('INVALID_DEFINITION', `two tools are named '${t.name}'`);
    seen.add(t.name);
  }
}

const stringify = (v) => {
  if (typeof v === 'string') return v;
  try { return JSON.stringify(v) ?? 'null'; } catch (e) { throw new Error(`the tool returned a value that cannot be written as JSON (${e.message})`); }
};

/**
 * @param {{ llm: object, mode?: 'chat'|'react', agentInfo?: { name?: string, goal?: string, backstory?: string },
 *   tools?: Array<{ name: string, description?: string, parameters?: object, run: Function, needsApproval?: boolean | ((args: any) => boolean) }>,
 *   systemPrompt?: string, maxToolRounds?: number, stream?: boolean, request?: object }} config
 */
export function createAgentNode(config) {
  const { llm, mode = 'react', agentInfo, tools = [], maxToolRounds = 8, stream = true, request = {} } = config ?? {};
  if (mode !== 'chat' && mode !== 'react') throw new EdgegraphError('INVALID_OPTIONS', `agent mode must be 'chat' or 'react', not '${mode}'`);
  checkTools(tools);
  let client = null; // built on first use, so a definition can be made before keys are at hand
  const byName = new Map(tools.map((t) => [t.name, t]));
  const prompt = systemPrompt({ agentInfo, tools, mode, extra: config.systemPrompt });

  async function runTool(call, args, ctx, state) {
    const tool = byName.get(call.function.name);
    const started = Date.now();
    const record = { id: call.id, name: call.function.name, arguments: args, node: ctx.node };
    ctx.emit?.({ type: 'tool_call', id: call.id, name: record.name, arguments: args });
    try {
      if (!tool) throw new Error(`there is no tool named '${record.name}'`);
      const problems = validate(tool.parameters ?? { type: 'object' }, args);
      if (problems.length) throw new Error(`invalid arguments: ${problems.join('; ')}`);
      const result = await tool.run(args, { signal: ctx.signal, toolCallId: call.id, state });
      record.result = result === undefined ? null : typeof result === 'string' ? result : JSON.parse(stringify(result));
      record.status = 'ok';
    } catch (e) {
      record.error = e?.message ?? String(e);
      record.status = 'error';
    }
    record.durationMs = Date.now() - started;
    ctx.emit?.({ type: 'tool_result', id: call.id, name: record.name, status: record.status, durationMs: record.durationMs });
    const content = record.status === 'ok' ? stringify(record.result) : `Error: ${record.error}`;
    return { record, message: { role: 'tool', tool_call_id: call.id, content } };
  }

  const parseArgs = (call) => {
    try { return { args: JSON.parse(call.function.arguments || '{}') }; } catch (e) { return { error: `the arguments are not valid JSON (${e.message})` }; }
  };
  const needsApproval = (call, args) => {
    const t = byName.get(call.function.name);
    return !!t && (typeof t.needsApproval === 'function' ? t.needsApproval(args) : !!t.needsApproval);
  };
  const decisionFor = (approval, callId) => {
    if (!approval) return undefined;
    if (Array.isArray(approval.decisions)) return approval.decisions.find((d) => d.toolCallId === callId) ?? approval.decisions.find((d) => !d.toolCallId);
    return !approval.toolCallId || approval.toolCallId === callId ? approval : undefined;
  };

  /** Run every call of one assistant message, concurrently, results in call order. */
  async function answer(calls, ctx, state, approval) {
    const outcomes = await Promise.all(calls.map(async (call) => {
      const parsed = parseArgs(call);
      if (parsed.error) {
        const record = { id: call.id, name: call.function.name, arguments: call.function.arguments, node: ctx.node, status: 'error', error: parsed.error, durationMs: 0 };
        return { record, message: { role: 'tool', tool_call_id: call.id, content: `Error: ${parsed.error}` } };
      }
      let args = parsed.args;
      if (needsApproval(call, args)) {
        const d = decisionFor(approval, call.id);
        if (d?.decision === 'reject') {
          const record = { id: call.id, name: call.function.name, arguments: args, node: ctx.node, status: 'rejected', error: d.reason, durationMs: 0 };
          return { record, message: { role: 'tool', tool_call_id: call.id, content: `The user rejected this call: ${d.reason}` } };
        }
        if (d?.decision === 'edit') args = d.arguments;
      }
      return runTool(call, args, ctx, state);
    }));
    return outcomes;
  }

  return async function agentNode(state, engine, ctx = {}) {
    client ??= createChatClient(llm ?? engine?.llmConfig);
    const out = [];     // messages this node adds
    const records = []; // tool calls it made
    const history = engine.getMessagesForLLM(state);
    const system = history.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
    const systemText = [prompt, system].filter(Boolean).join('\n\n');
    // No instructions, no system message: an empty one is noise some providers reject.
    const conversation = [...(systemText ? [{ role: 'system', content: systemText }] : []), ...history.filter((m) => m.role !== 'system')];
    const done = (extra) => ({ messages: out, toolCalls: records, lastToolCall: records.at(-1) ?? state.lastToolCall, ...(state.approval ? { approval: null } : {}), ...extra });

    // Back from a pause for approval: the last message holds calls not yet answered.
    const last = state.messages?.at(-1);
    if (last?.role === 'assistant' && last.tool_calls?.length && state.pendingAskUser === undefined) {
      const pending = last.tool_calls;
      const waiting = pending.filter((c) => { const p = parseArgs(c); return !p.error && needsApproval(c, p.args) && !decisionFor(state.approval, c.id); });
      if (waiting.length) return pauseFor(pending, out, records, ctx, {});
      const outcomes = await answer(pending, ctx, state, state.approval);
      for (const o of outcomes) { records.push(o.record); out.push(o.message); }
      if (ctx.toolsOnly) return done({});
      return recordRound(out, records, ctx, state.approval ? { approval: null } : {});
    }

    if (ctx.toolsOnly) return done({}); // the tools node: the calls were run (or paused for) above
    for (let round = roundsSoFar(state.messages); ; round++) {
      if (round >= maxToolRounds) return done({ lastModelOutput: out.filter((m) => m.role === 'assistant').at(-1)?.content ?? null, logs: [`${ctx.node}: stopped after ${maxToolRounds} tool rounds`] });
      const reply = await client.chat({
        ...request,
        messages: conversation,
        tools: mode === 'react' && tools.length ? tools : undefined,
        signal: ctx.signal,
        stream,
        onToken: ctx.emit ? (text) => ctx.emit({ type: 'llm_token', text }) : undefined,
      });
      out.push(reply.message);
      conversation.push(reply.message);
      const calls = reply.message.tool_calls ?? [];
      if (mode === 'chat' || calls.length === 0) return done({ lastModelOutput: reply.content, ...(reply.usage ? { metadata: { lastUsage: reply.usage } } : {}) });
      const waiting = calls.filter((c) => { const p = parseArgs(c); return !p.error && needsApproval(c, p.args); });
      if (waiting.length) return pauseFor(calls, out, records, ctx, state.approval ? { approval: null } : {});
      const outcomes = await answer(calls, ctx, state, undefined);
      for (const o of outcomes) { records.push(o.record); out.push(o.message); }
      return recordRound(out, records, ctx, state.approval ? { approval: null } : {});
    }
  };

  /**
   * Tools ran: their results are committed now, in a step of their own, and
   * the node comes back to itself for the next LLM call. So whatever fails
   * after (the next LLM call, a crash, an abort), a resume starts from the
   * recorded results and never runs those tools again.
   */
  function recordRound(out, records, ctx, extra) {
    return { messages: out, toolCalls: records, lastToolCall: records.at(-1), nextNodeOverride: ctx.node, ...extra };
  }
  /** Tool rounds already taken in this turn: assistant tool_calls messages since the last user message. */
  function roundsSoFar(messages = []) {
    let rounds = 0;
    for (let i = messages.length - 1; i >= 0 && messages[i].role !== 'user'; i--) {
      if (messages[i].role === 'assistant' && messages[i].tool_calls?.length) rounds++;
    }
    return rounds;
  }

  function pauseFor(calls, out, records, ctx, extra) {
    const pendingCalls = calls.map((c) => {
      const p = parseArgs(c);
      return { id: c.id, name: c.function.name, arguments: p.error ? c.function.arguments : p.args, needsApproval: !p.error && needsApproval(c, p.args) };
    });
    return {
      messages: out,
      toolCalls: records,
      pendingAskUser: { type: 'tool_approval', node: ctx.node, toolCalls: pendingCalls },
      nextNodeOverride: ctx.node, // resume comes back here to run (or not) the calls
      ...extra,
    };
  }
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
export function createLLMNode({ llm, tools = [], systemPrompt, stream = true, request = {} } = {}) {
  checkTools(tools);
  let client = null;
  return async (state, engine, ctx = {}) => {
    client ??= createChatClient(llm ?? engine?.llmConfig);
    const history = engine.getMessagesForLLM(state);
    const system = [systemPrompt, ...history.filter((m) => m.role === 'system').map((m) => m.content)].filter(Boolean).join('\n\n');
    const messages = [...(system ? [{ role: 'system', content: system }] : []), ...history.filter((m) => m.role !== 'system')];
    const reply = await client.chat({ ...request, messages, tools: tools.length ? tools : undefined, signal: ctx.signal, stream, onToken: ctx.emit ? (text) => ctx.emit({ type: 'llm_token', text }) : undefined });
    return { messages: [reply.message], lastModelOutput: reply.content };
  };
}

/** A router: to `toolsNode` when the last message asks for tools, else to `end`. */
export function routeOnToolCalls(toolsNode = 'tools', end = '__end__') {
  const router = (state) => (state.messages?.at(-1)?.tool_calls?.length ? toolsNode : end);
  return { router, targets: [toolsNode, end] };
}

/**
 * Run the tool calls of the last assistant message (seed 004's "tools
 * node"): validated arguments, concurrent calls, results in call order,
 * approval pauses for tools marked needsApproval.
 */
export function createToolsNode({ tools = [] } = {}) {
  const node = createAgentNode({ llm: { model: 'unused' }, tools, mode: 'react', maxToolRounds: 0 });
  return async (state, engine, ctx = {}) => {
    const last = state.messages?.at(-1);
    if (last?.role !== 'assistant' || !last.tool_calls?.length) return {};
    const result = await node(state, engine, { ...ctx, toolsOnly: true });
    delete result.logs;
    delete result.lastModelOutput;
    return result;
  };
}
