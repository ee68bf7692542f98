// command.js: LangGraph's Command (route and update from a node; resume,
// update or go elsewhere when a paused run continues) over edgegraph's own
// Command. LangGraph's fields are kept: `update` may be a list of
// [key, value] writes, `goto` names, Sends or END, `graph: Command.PARENT`.

import { plainMessages, isObject } from './messages.js';

// Pausing from inside a node is edgegraph's own interrupt() (during the node's synchronous
// call in every runtime, after an await where AsyncLocalStorage exists; `config.interrupt`
// works everywhere); a node's catch-all rethrows what isGraphInterrupt() says is one.
export { interrupt, isGraphInterrupt } from './edgegraph.js';

export class Command {
  static PARENT = '__parent__';

  /** @param {{ resume?: unknown, update?: object | Array<[string, unknown]>, goto?: string | Send | Array<string | Send>, graph?: string }} [fields] */
  constructor(fields = {}) {
    this.lg_name = 'Command';
    for (const key of ['resume', 'update', 'goto', 'graph']) if (fields[key] !== undefined) this[key] = fields[key];
  }

  /** A LangChain tool returns it as it is (not as a ToolMessage's text), as LangGraph's Command. On the prototype: no key in the data. */
  get lc_direct_tool_output() { return true; }
}

/** A Command of this entry, of @langchain/langgraph (by shape), or of edgegraph. */
export function isCommand(v) {
  return isObject(v) && (v.lg_name === 'Command' || v[Symbol.for('edgegraph.command')] === true);
}

/** Whether a Command is for the parent graph (LangGraph takes Command.PARENT and 'PARENT'). */
export function toParent(command) {
  return command.graph === Command.PARENT || command.graph === 'PARENT';
}

/** A Send's argument with its messages made plain: itself, a list, or an object's values ({ m: AIMessage }), as a state's are. */
function plainArg(v) {
  const plain = plainMessages(v);
  return plain === v && isObject(v) && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainMessages(x)])) : plain;
}

/** A target as edgegraph takes it: a name, or a Send (this entry's or LangGraph's: both have lg_name) as { node, arg } with its messages made plain. */
export const targetOf = (t) => (t?.lg_name === 'Send' ? { node: t.node, arg: plainArg(t.args) } : t);

/** goto as edgegraph takes it: names, and Sends as { node, arg }. */
export const gotoOf = (goto) => (Array.isArray(goto) ? goto.map(targetOf) : targetOf(goto));

/**
 * An update as one object: a list of [key, value] writes becomes one write a
 * key, the writes to one key combined by its reducer in order (`combine(key,
 * a, b)`), the last one for a channel without one.
 */
export function updateOf(update, combine) {
  if (!Array.isArray(update)) return update ?? {};
  const out = {};
  for (const [key, value] of update) out[key] = Object.hasOwn(out, key) ? combine(key, out[key], value) : value;
  return out;
}

/**
 * A node's result as one Command, or null: a Command, or a list mixing
 * updates and Commands (their writes in order, the last goto).
 */
export function resultCommand(out) {
  if (isCommand(out)) return out;
  if (!Array.isArray(out) || !out.some(isCommand)) return null;
  const writes = [];
  let goto, graph;
  for (const part of out) {
    const command = isCommand(part);
    const update = command ? part.update : part;
    writes.push(...(Array.isArray(update) ? update : Object.entries(update ?? {})));
    if (command && part.goto !== undefined) goto = part.goto;
    if (command && part.graph !== undefined) graph = part.graph;
  }
  return new Command({ update: writes, goto, graph });
}
