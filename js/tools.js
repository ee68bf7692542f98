// tools.js: running the tool calls of one assistant message, the step an
// agent node and a tools node share. Arguments are parsed and validated
// against the tool's JSON Schema, calls that need approval wait for a decision
// (approve, reject, edit), calls run concurrently and come back in call
// order, and every call is recorded. `parameters` is JSON Schema or a
// Standard Schema (Zod, Valibot...), validated by its own library. A failure of any kind becomes the call's
// result ("Error: ..."), which goes back to the model instead of ending the run.

import { check, jsonSchemaOf } from './standard-schema.js';
import { EdgegraphError } from './errors.js';

/** Tool names are what OpenAI accepts; each tool needs run(). */
export function checkTools(tools) {
  const seen = new Set();
  for (const t of tools) {
    if (!t || typeof t.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(t.name)) throw new EdgegraphError('INVALID_DEFINITION', `tool names must be 1-64 letters, digits, _ or - (got ${JSON.stringify(t?.name)})`);
    if (typeof t.run !== 'function') throw new EdgegraphError('INVALID_DEFINITION', `tool '${t.name}' needs a run(args, context) function`);
    if (seen.has(t.name)) throw new EdgegraphError('INVALID_DEFINITION', `two tools are named '${t.name}'`);
    seen.add(t.name);
  }
}

/** What the model is told of each tool: name, description, JSON Schema parameters (a Standard Schema converted). */
export function toolsForModel(tools) {
  checkTools(tools);
  return tools.map((t) => ({ name: t.name, description: t.description ?? '', parameters: jsonSchemaOf(t.parameters ?? { type: 'object', properties: {} }, t.jsonSchema, `tool '${t.name}'`) }));
}

/**
 * A tool whose own infrastructure is gone (an MCP server unreachable: its
 * error has failsRun) gets no answer, so the node comes back and retries that
 * call alone; the calls that did run are kept (`retry` says some are left),
 * so their side effects never repeat. When none ran, the node fails with the
 * typed error, and a resume retries.
 */
function keepFinished(outcomes) {
  const finished = outcomes.filter((o) => !o.thrown);
  const thrown = outcomes.find((o) => o.thrown)?.thrown;
  if (thrown && finished.length === 0) throw thrown;
  return Object.assign(finished, { retry: thrown !== undefined });
}

const stringify = (v) => {
  if (typeof v === 'string') return v;
  try { return JSON.stringify(v) ?? 'null'; } catch (e) { throw new Error(`the tool returned a value that cannot be written as JSON (${e.message})`); }
};

const parseArgs = (call) => {
  try { return { args: JSON.parse(call.function.arguments || '{}') }; } catch (e) { return { error: `the arguments are not valid JSON (${e.message})` }; }
};

/** The decision (approve(), reject(), editArguments(), or one of `decisions`) for a call, if any. */
function decisionFor(approval, callId) {
  if (!approval) return undefined;
  if (Array.isArray(approval.decisions)) return approval.decisions.find((d) => d.toolCallId === callId) ?? approval.decisions.find((d) => !d.toolCallId);
  return !approval.toolCallId || approval.toolCallId === callId ? approval : undefined;
}

export class ToolBox {
  #byName;

  constructor(tools) {
    /** The tools as the model sees them (JSON Schema parameters). */
    this.forModel = toolsForModel(tools);
    this.tools = tools;
    this.#byName = new Map(tools.map((t) => [t.name, t]));
  }

  #needsApproval(call, args) {
    const t = this.#byName.get(call.function.name);
    return !!t && (typeof t.needsApproval === 'function' ? t.needsApproval(args) : !!t.needsApproval);
  }

  /** Calls that need approval and have no decision in `approval`. */
  waiting(calls, approval = undefined) {
    return calls.filter((c) => { const p = parseArgs(c); return !p.error && this.#needsApproval(c, p.args) && !decisionFor(approval, c.id); });
  }

  /** A node result that pauses for approval of `calls`; resume comes back to the node. */
  pause(calls, node, extra = {}) {
    const toolCalls = calls.map((c) => {
      const p = parseArgs(c);
      return { id: c.id, name: c.function.name, arguments: p.error ? c.function.arguments : p.args, needsApproval: !p.error && this.#needsApproval(c, p.args) };
    });
    return { pendingAskUser: { type: 'tool_approval', node, toolCalls }, nextNodeOverride: node, ...extra };
  }

  /**
   * Run every call of one assistant message, concurrently; [{ record, message }] in call order,
   * without the calls whose tool could not be reached (see keepFinished).
   */
  async answer(calls, ctx, state, approval) {
    return keepFinished(await Promise.all(calls.map(async (call) => {
      const parsed = parseArgs(call);
      if (parsed.error) {
        const record = { id: call.id, name: call.function.name, arguments: call.function.arguments, node: ctx.node, status: 'error', error: parsed.error, durationMs: 0 };
        return { record, message: { role: 'tool', tool_call_id: call.id, content: `Error: ${parsed.error}` } };
      }
      let args = parsed.args;
      if (this.#needsApproval(call, args)) {
        const d = decisionFor(approval, call.id);
        if (d?.decision === 'reject') {
          const record = { id: call.id, name: call.function.name, arguments: args, node: ctx.node, status: 'rejected', error: d.reason, durationMs: 0 };
          return { record, message: { role: 'tool', tool_call_id: call.id, content: `The user rejected this call: ${d.reason}` } };
        }
        if (d?.decision === 'edit') args = d.arguments;
      }
      return this.#run(call, args, ctx, state);
    })));
  }

  async #run(call, args, ctx, state) {
    const tool = this.#byName.get(call.function.name);
    const started = Date.now();
    const record = { id: call.id, name: call.function.name, arguments: args, node: ctx.node };
    ctx.emit?.({ type: 'tool_call', id: call.id, name: record.name, arguments: args });
    const span = ctx.trace?.tool(call, args);
    let thrown;
    try {
      if (!tool) throw new Error(`there is no tool named '${record.name}'`);
      // The tool never runs on arguments its schema refuses; it gets the schema's output (defaults, transforms).
      const checked = await check(tool.parameters, args);
      if (checked.problems) throw new Error(`invalid arguments: ${checked.problems.join('; ')}`);
      args = checked.value;
      const result = await tool.run(args, { signal: ctx.signal, toolCallId: call.id, state });
      record.result = result === undefined ? null : typeof result === 'string' ? result : JSON.parse(stringify(result));
      record.status = 'ok';
    } catch (e) {
      record.error = e?.message ?? String(e);
      record.status = 'error';
      // A tool's own infrastructure gone (an MCP server unreachable): no answer for the model (keepFinished).
      if (e?.failsRun) thrown = e;
    }
    record.durationMs = Date.now() - started;
    span?.end(record, thrown);
    ctx.emit?.({ type: 'tool_result', id: call.id, name: record.name, status: record.status, durationMs: record.durationMs });
    if (thrown) return { record, thrown };
    const content = record.status === 'ok' ? stringify(record.result) : `Error: ${record.error}`;
    return { record, message: { role: 'tool', tool_call_id: call.id, content } };
  }
}
