// nested.js: a compiled graph invoked inside another graph's node
// (`await child.invoke(input, config)`, LangGraph's way to call a graph of
// another state schema; without `config` too, where the node's context is
// found: interrupt.js's currentNodeContext). As LangGraph's:
// - an interrupt() in the child pauses the parent, and resuming the parent runs
//   the node again, whose same call resumes the child where it paused, with its answers;
// - a child that finished before the node paused is not run again: its call
//   returns the values it returned (its side effects are not repeated);
// - a child node's Command.PARENT becomes the node's result (its update and
//   goto; the child's values are not passed).
// What each call of a child did waits with the node's task (its `keep`, which
// the core stores with the task) under `nested`, by the call's number in the
// node's call order: { checkpoint, ids } paused, { values } finished. A
// paused child's interrupt ids are `<node>:<step>.<task>/<call>/<child id>`;
// its chunks stream under the node's namespace, and a call after the first
// under `[..., '<call>']`, as LangGraph's. How a call ends (paused, handed
// off, finished) is nested-end.js's, loaded with the first call that ends.

import { EngineCommand, isGraphInterrupt } from './edgegraph.js';
import { invocationIn } from './invocations.js';

const TASK = Symbol.for('edgegraph.task');   // interrupt.js's: a node context's task, { base, answers, keep }
const PARENT = Symbol.for('edgegraph.langgraph.parent');   // config.js's: a node config's context
/** A child node's Command.PARENT, on the error that carries it out of the node's call (nested-end.js). */
export const HANDOFF = Symbol('handoff');

/** A node call's context -> { calls, kept }: its count of calls of graphs, and what they did (a node config's copies share it). */
const owners = new WeakMap();

/** The stream a graph invoked inside the node of context `ctx` streams into, and its namespace there (a child Invocation's parent). */
export const parentOf = (ctx) => ({ stream: invocationIn(ctx), ns: [`${ctx.node}:${ctx.taskId}`] });

/**
 * The next call of a graph inside the node of context `ctx`, which keeps no checkpoints of its own:
 * parentOf's { stream, ns } (a call after the first: `[..., '<call>']`), `owner` (the node call's
 * { calls, kept }), `call` (its number), `at` (its ids' prefix), `task` (the node's), `was` (what
 * this call did before the node paused: { checkpoint, ids } or { values }), `answers` (a paused
 * child's, as the engine's resume takes them).
 */
export function nestedCall(ctx) {
  const task = ctx[TASK];
  let owner = owners.get(ctx);
  if (!owner) owners.set(ctx, (owner = { calls: 0, kept: undefined }));
  const call = owner.calls++;
  const at = `${task.base}/${call}`;
  const was = task.keep?.nested?.[call];
  const answers = {};
  let any = false;
  for (const id of was?.ids ?? []) if (Object.hasOwn(task.answers, `${at}/${id}`)) { answers[id] = task.answers[`${at}/${id}`]; any = true; }
  const parent = parentOf(ctx);
  if (call) parent.ns.push(String(call));
  return { ...parent, owner, call, at, task, was, answers: any ? new EngineCommand({ resume: answers }) : undefined };
}

/**
 * What the node of `config` threw, as its result: a handoff's Command. Anything else is thrown
 * on; a pause or a failure takes with it what the node's calls of graphs did (its task keeps it:
 * a pause's in its keep, a failure's under TASK, which run.js keeps with the failed task).
 */
export function handedOff(error, config) {
  if (error?.[HANDOFF]) return error[HANDOFF];
  const kept = owners.get(config[PARENT])?.kept;
  // (Those of this call of the node only: a call the node did not reach this time is dropped.)
  if (isGraphInterrupt(error)) { if (kept || error.keep?.nested) error.keep = { ...error.keep, nested: kept }; }
  else if (kept && Object(error) === error) error[TASK] = { ...config[PARENT][TASK].keep, nested: kept };
  throw error;
}
