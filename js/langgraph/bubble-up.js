// bubble-up.js: what a node throws to leave its call without failing, as LangGraph's
// GraphBubbleUp errors: NodeInterrupt (a pause: a dynamic breakpoint) and
// ParentCommand (a Command for the parent graph). A catch-all in a node rethrows
// what isGraphBubbleUp() says is one. Only a program that imports them loads this.

import { GraphInterrupt, currentNodeContext, isGraphInterrupt } from './edgegraph.js';
import { BaseLangGraphError } from './errors.js';
import { HANDOFF } from './nested.js';
import { toParent } from './command.js';

const TASK = Symbol.for('edgegraph.task');   // interrupt.js's: a node context's task, { base, ... }

/**
 * `throw new NodeInterrupt(value)` in a node pauses the run there, as LangGraph's: the step's
 * other tasks keep their writes, `getState()` shows the task's interrupt, and `invoke(null, config)`
 * (after an `updateState`, say) runs the node again. Its interrupt's id is `<node>:<step>.<task>:node`
 * (LangGraph's has none); a `Command({ resume })` for it is not an answer the node reads.
 */
export class NodeInterrupt extends GraphInterrupt {
  constructor(value, fields) {
    // (Its node's task, found as interrupt() finds it: during the node's call, or after an await of an async node.)
    const base = currentNodeContext()?.[TASK]?.base ?? 'node';
    super([{ id: `${base}:node`, value: value === undefined ? null : value }]);
    this.name = 'NodeInterrupt';
    this.message = JSON.stringify([{ value }], null, 2);
    this.lc_error_code = fields?.lc_error_code;
  }
}

/**
 * A Command for the parent graph, thrown: `throw new ParentCommand(new Command({ graph: Command.PARENT,
 * goto, update }))` in a subgraph's node is that node's result, as returning the Command (one for
 * another graph writes nothing, as LangGraph's). A graph invoked inside a node throws one when its
 * node hands off to the parent: rethrow it.
 */
export class ParentCommand extends Error {
  constructor(command) {
    super('');
    this.name = 'ParentCommand';
    this.command = command;
    this[HANDOFF] = toParent(command ?? {}) ? command : {};
  }

  get is_bubble_up() { return true; }
}

/** Whether `e` is a ParentCommand (by name, as LangGraph's). */
export const isParentCommand = (e) => e?.name === 'ParentCommand';

/** Whether `e` leaves a node without failing it (an interrupt, a NodeInterrupt, a ParentCommand): a node's catch-all rethrows it. */
export const isGraphBubbleUp = (e) => isGraphInterrupt(e) || isParentCommand(e) || e?.is_bubble_up === true;

/**
 * LangGraph's base of those: `e instanceof GraphBubbleUp` is isGraphBubbleUp(e) (an interrupt is
 * edgegraph's GraphInterrupt); a class extending it is matched as any class is.
 */
export class GraphBubbleUp extends BaseLangGraphError {
  get is_bubble_up() { return true; }
}
// (Set apart: a class body naming its own class gets a renamed one in a bundle, and its instances that name.)
Object.defineProperty(GraphBubbleUp, Symbol.hasInstance, {
  value(e) { return this === GraphBubbleUp ? isGraphBubbleUp(e) : Function.prototype[Symbol.hasInstance].call(this, e); },
});
