// command.js: Command, a node's result that routes and updates at once, and
// the value resume() takes to answer interrupts, update the state or go
// elsewhere. A node's Command becomes the result the core reads: its update's
// keys, and nextNodeOverride = its goto (a name, or a list of names and Sends:
// the core checks every name). `graph: Command.PARENT` hands the goto and the
// update to the graph that runs this one as a subgraph.

import { EdgegraphError } from './errors.js';
import { isPlainObject } from './objects.js';

const BRAND = Symbol.for('edgegraph.command');
const FIELDS = ['resume', 'update', 'goto', 'graph'];

export class Command {
  /** The graph that runs this one as a subgraph node. */
  static PARENT = '__parent__';

  /** @param {{ resume?: unknown, update?: object, goto?: string | object | Array<string | object>, graph?: string }} [fields] */
  constructor(fields = {}) {
    if (!isPlainObject(fields)) throw new EdgegraphError('INVALID_INPUT', 'new Command() takes { resume?, update?, goto?, graph? }');
    for (const key of Object.keys(fields)) {
      if (!FIELDS.includes(key)) throw new EdgegraphError('INVALID_INPUT', `Command has no field '${key}' (the fields are ${FIELDS.join(', ')})`);
      if (fields[key] !== undefined) this[key] = fields[key];
    }
    if (this.update !== undefined && !isPlainObject(this.update)) throw new EdgegraphError('INVALID_INPUT', 'Command.update must be an object (a partial state)');
    if (this.graph !== undefined && this.graph !== Command.PARENT) throw new EdgegraphError('INVALID_INPUT', "Command.graph must be Command.PARENT ('__parent__') when given");
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** A Command from any copy of edgegraph (node results are Commands only by class or brand). */
export function isCommand(v) {
  return v !== null && typeof v === 'object' && v[BRAND] === true;
}

/**
 * A resume value as a Command: a Command, or a plain object whose keys are
 * all among resume, update, goto ({ resume: 'yes' }); otherwise null.
 */
export function resumeCommand(v) {
  if (isCommand(v)) return v;
  if (!isPlainObject(v)) return null;
  const keys = Object.keys(v);
  if (!keys.length || !keys.every((k) => k === 'resume' || k === 'update' || k === 'goto')) return null;
  return new Command(v);
}

/** goto as the core reads it: a name, or a list of names and Sends ({ node, arg }). */
export function gotoJSON(to, where) {
  const one = (t) => {
    if (typeof t === 'string') return t;
    if (isPlainObject(t) && typeof t.node === 'string') return t.arg === undefined ? t.node : { node: t.node, arg: t.arg };
    throw new EdgegraphError('INVALID_INPUT', `${where}: goto takes a node name, a Send ({ node, arg }) or a list of them`);
  };
  if (typeof to === 'string') return to;
  return (Array.isArray(to) ? to : [to]).map(one);
}

/** A node's Command as the result the core reads. */
export function commandResult(command, node) {
  const result = { ...(command.update ?? {}) };
  if (command.goto !== undefined) result.nextNodeOverride = gotoJSON(command.goto, `node '${node}'`);
  return result;
}
