// tool-calls.js: a ToolNode's run (tool-node.js): the tool calls of the last
// assistant message, each by its tool, as LangGraph's prebuilt ToolNode runs them.

import { isCommand, isGraphInterrupt, Command, toParent } from './command.js';
import { toPlainMessage } from './messages.js';

/**
 * One tool call (OpenAI's shape or LangChain's) run by `node`'s tool of its
 * name, as LangChain's ToolCall: a LangChain tool answers a ToolMessage, and
 * may answer a Command; another value becomes a tool message. `state`: what the
 * tools read from their second argument (LangGraph's ToolRuntime).
 */
async function runTool(node, call, config, state) {
  const name = call.name ?? call.function?.name;
  try {
    const tool = node.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`Tool "${name}" not found.`);
    const args = call.function && call.args === undefined ? JSON.parse(call.function.arguments || '{}') : call.args;
    const out = await tool.invoke({ id: call.id, name, args, type: 'tool_call' }, { ...config, state, toolCallId: call.id ?? '', config });
    if (isCommand(out) || toPlainMessage(out)?.role === 'tool') return out;
    return { role: 'tool', content: typeof out === 'string' ? out : JSON.stringify(out), name, tool_call_id: call.id, status: 'success' };
  } catch (e) {
    // (An interrupt() in a tool pauses the run: never an answer.)
    if (!node.handleToolErrors || isGraphInterrupt(e)) throw e;
    // LangGraph's words, which the model reads and may correct its call after.
    return { role: 'tool', content: `Error: ${e.message}\n Please fix your mistakes.`, name, tool_call_id: call.id ?? '', status: 'error' };
  }
}

/**
 * `node`'s run on `input`: a Send's `{ ...state, lg_tool_call }` (one call per task: LangGraph's
 * per-call fan-out) runs that call alone; a state with messages, the calls of the last assistant
 * message not answered yet, in parallel. Their messages as an update, or with a tool's Command a
 * list of updates and Commands (graph-runner.js takes both), the Sends of several tools' Command.PARENT
 * merged into one, as LangGraph's ToolNode merges them. (Not LangGraph's other input, a message
 * list: MessageGraph's, not a StateGraph's.)
 */
export async function runTools(node, input, config) {
  const outputs = input?.lg_tool_call ? [await runTool(node, input.lg_tool_call, config, input)] : await runLastCalls(node, input, config);
  // (Called with a list of messages, LangGraph's other input: the tool messages as a list.)
  if (!outputs.some(isCommand)) return Array.isArray(input) ? outputs : { messages: outputs };
  const combined = [];
  let parent = null;
  for (const o of outputs) {
    if (!isCommand(o)) combined.push({ messages: [o] });
    else if (toParent(o) && Array.isArray(o.goto) && o.goto.every((t) => t?.lg_name === 'Send')) {
      if (parent) parent.goto.push(...o.goto);
      else parent = new Command({ graph: Command.PARENT, goto: [...o.goto] });
    } else combined.push(o);
  }
  if (parent) combined.push(parent);
  return combined;
}

/** The calls of the last assistant message in `input.messages` (or `input`, a list) not answered yet, run in parallel: their outputs. */
function runLastCalls(node, input, config) {
  const messages = Array.isArray(input) ? input : input?.messages ?? [];
  // From the end: the answers after the last assistant message, then it (not the whole list: a long thread's is long).
  const answered = new Set();
  let ai;
  for (let i = messages.length - 1; i >= 0 && !ai; i--) {
    const m = toPlainMessage(messages[i]);
    if (m?.role === 'assistant') ai = m;
    else if (m?.role === 'tool') answered.add(m.tool_call_id);
  }
  if (!ai) throw new Error('ToolNode: no assistant message in its input ({ messages } or a list of messages)');
  // (Its calls as the state has them: toPlainMessage leaves a plain message's { id, name, args } as they are.)
  return Promise.all((ai.tool_calls ?? []).filter((c) => c.id == null || !answered.has(c.id)).map((c) => runTool(node, c, config, input)));
}
