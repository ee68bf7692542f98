// nested-end.js: how a graph invoked inside another graph's node ends, as
// the node sees it (nested.js says what LangGraph does): a child's pause is the
// node's, a child node's Command.PARENT is the node's result, and a finished
// child's values are kept with the node's task. Loaded by graph-runner.js with the
// first such call that ends: a program that invokes no graph inside a node never reads it.

import { GraphInterrupt } from './edgegraph.js';
import { Command } from './command.js';
import { BREAKPOINT, shownInterrupts } from './subgraph-node.js';
import { HANDOFF } from './nested.js';

/**
 * The end of call `nested` (nested.js's nestedCall) of `runner`'s graph (graph-runner.js's GraphRunner) with the
 * engine's `result` (not failed), streaming to `inv`: its values, or thrown, its pause or handoff.
 */
export function nestedEnd(runner, nested, result, inv) {
  if (result.parentCommand) throw nestedHandoff(result.parentCommand);
  if (result.status === 'PAUSED') {
    inv.paused(shownInterrupts(result.interrupts, `${nested.at}/`), true);   // (in the child's namespace, as a subgraph node's)
    throw nestedPause(nested, result);
  }
  const values = runner.output(result.state);
  nestedDone(nested, values);
  return values;
}

/** A call that finished before the node paused: what it returned (`nested.was.values`), as LangGraph replays a finished child. */
export function nestedReplay(nested, inv) {
  const { values } = nested.was;
  nestedDone(nested, values);
  if (inv.values) inv.push('values', inv.update(values));
  return values;
}

/** What call `nested` did (`{ values }`, `{ checkpoint, ids }`), kept with the node's call: its task keeps it if the node pauses or fails later (nested.js). */
export function keepCall(nested, done) {
  (nested.owner.kept ??= {})[nested.call] = done;
}

/** The child of call `nested` finished with `values`: kept, as JSON has them, in case the node pauses later. */
function nestedDone(nested, values) {
  keepCall(nested, { values: JSON.parse(JSON.stringify(values)) });
}

/**
 * The child's pause `result` as the node's: its interrupts under the call's ids (a breakpoint's
 * as one needing no answer, which the caller is not shown); its checkpoint is kept.
 */
function nestedPause(nested, result) {
  const ids = result.interrupts?.map((i) => i.id) ?? [];
  keepCall(nested, { checkpoint: result.checkpoint, ids });
  const pending = ids.length ? result.interrupts : [{ id: BREAKPOINT, value: null }];
  return new GraphInterrupt(pending.map((i) => ({ id: `${nested.at}/${i.id}`, value: i.value })), nested.task.keep);
}

/** A child node's Command.PARENT (its run's parentCommand) as the error that carries it out of the node's call. */
function nestedHandoff({ update, goto }) {
  const error = new Error('a node of a graph invoked inside this node returned Command({ graph: Command.PARENT }): rethrow this error');
  error.name = 'ParentCommand';
  error[HANDOFF] = error.command = new Command({ update: update?.channels, goto });   // (`command`: LangGraph's ParentCommand's)
  return error;
}
