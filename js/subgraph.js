// subgraph.js: a node that runs another graph with its own state, mapped in
// and out explicitly. When the child pauses, the parent pauses: a child that
// interrupt()ed passes its interrupts up, with ids prefixed by this node's
// task (`<node>:<step>.<task>/<child id>`), and its checkpoint waits with the
// parent's task; a child paused by pendingAskUser waits in the parent's
// state.subgraphs.<node>. Resuming the parent runs this node again, which
// resumes the child where it stopped, with its answers. A child node's
// Command with graph: Command.PARENT ends the child and routes the parent.
// With `persist`, a child that finished keeps its state there too
// ({ finished: state }), and the node's next call starts the child from it,
// the input written through the child's reducers (edgegraph/langgraph's checkpointer: true).
// A paused child edited from outside waits in state.subgraphs.<node>:<task> as
// { checkpoint, replaces }: the task resumes the child from it.

import { EdgegraphError } from './errors.js';
import { Command } from './command.js';
import { GraphInterrupt, TASK } from './interrupt.js';
import { STREAM } from './events.js';

/** The child's answers among the parent task's: those for the child's pending ids. */
function childAnswers(internal) {
  const { keep, base, answers } = internal;
  const out = {};
  let any = false;
  for (const id of keep.ids) {
    const key = `${base}/${id}`;
    if (Object.hasOwn(answers, key)) { out[id] = answers[key]; any = true; }
  }
  return any ? new Command({ resume: out }) : undefined;
}

/**
 * @param {string} name the node's name in the parent
 * @param {{ input?: Function, output?: Function, persist?: boolean, holdPause?: string, around?: (start: (options: object) => Promise<object>, ctx: object, state: object) => Promise<object> }} spec
 * @param {import('./engine.js').GraphEngine} child
 */
export function subgraphHandler(name, spec, child) {
  // (`child`: a stop of the parent waits for the child to stop at a step and keep it, run.js)
  return Object.assign(async (state, engine, ctx) => {
    const internal = ctx[TASK];
    const saved = state.subgraphs?.[name];
    const options = ctx.signal ? { signal: ctx.signal } : {};
    if (ctx.configurable !== undefined) options.configurable = ctx.configurable;
    // stream({ streamMode }): the child's chunks go to the parent's stream, under this task.
    const tap = ctx[STREAM]?.child(name, ctx.taskId);
    if (tap) Object.assign(options, { onEvent: tap.onEvent, [STREAM]: tap });
    // An edit of the paused child (state.subgraphs.<task>, edgegraph/langgraph's updateState by
    // namespace) replaces the checkpoint kept with the task, while that is the one it was made from.
    const edit = internal?.keep ? state.subgraphs?.[internal.base] : undefined;
    const start = (more) => {
      const o = { ...options, ...more };
      if (tap && more.onEvent) o.onEvent = (event) => { more.onEvent(event); tap.onEvent(event); };
      if (internal?.keep) return child.resume(edit?.replaces === internal.keep.checkpoint ? edit.checkpoint : internal.keep.checkpoint, childAnswers(internal), o);
      const input = () => (spec.input ? spec.input(state, ctx) : {});
      if (saved?.finished) return child.resume(startFrom(saved.finished), new Command({ update: input() }), o);
      return saved ? child.resume(saved, ctx.resumeInput, o) : child.execute(input(), o);
    };
    // `around` (edgegraph/langgraph's compiled graph as a node) wraps the child's run: it adds run
    // options (its runId, onEvent) and reads the result before it is mapped.
    const result = spec.around ? await spec.around(start, ctx, state) : await start({});
    // With `holdPause` (an id), a child paused without interrupts (a breakpoint) waits with the
    // parent's task too, under one interrupt of that id that needs no answer: parallel tasks of
    // this node then pause apart (edgegraph/langgraph hides that interrupt).
    const pending = result.interrupts?.length ? result.interrupts : result.status === 'PAUSED' && spec.holdPause ? [{ id: spec.holdPause, value: null }] : [];
    if (result.status === 'PAUSED' && pending.length) {
      throw new GraphInterrupt(pending.map((i) => ({ id: `${internal.base}/${i.id}`, value: i.value })),
        { checkpoint: result.checkpoint, ids: (result.interrupts ?? []).map((i) => i.id) });
    }
    if (result.status === 'PAUSED') {
      return { subgraphs: { [name]: result.checkpoint }, pendingAskUser: result.state.pendingAskUser ?? { subgraph: name }, nextNodeOverride: name };
    }
    const { error } = result;
    if (error) {
      // Failed, or stopped (the parent's abort, a sibling's failure: INTERRUPTED, its error ABORTED): the child's
      // checkpoint stays with the task (run.js), not in the state: a resume goes on from the child's step where it stopped.
      throw Object.assign(new EdgegraphError(error.code, `subgraph '${name}': ${error.message}`, { node: name, cause: error }), { [TASK]: { checkpoint: result.checkpoint, ids: [] } });
    }
    // A handoff (a child node's Command.PARENT): its update and goto, instead of the output mapping.
    const handoff = result.parentCommand;
    const kept = { [name]: spec.persist ? { finished: result.state } : null, ...(edit ? { [internal.base]: null } : {}) };
    if (handoff) return new Command({ update: { ...(handoff.update ?? {}), subgraphs: kept }, goto: handoff.goto });
    return { ...(spec.output ? spec.output(result.state, state) : {}), subgraphs: kept };
  }, { child: true });
}

/** A finished child's state as a new run's start: the run's own keys dropped, so it starts at the entry. */
function startFrom(finished) {
  const { status, currentNode, nextNode, error, ...rest } = finished;
  return rest;
}
