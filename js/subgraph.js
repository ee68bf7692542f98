// subgraph.js: a node that runs another graph with its own state, mapped in
// and out explicitly. When the child pauses, the parent pauses: a child that
// interrupt()ed passes its interrupts up, with ids prefixed by this node's
// task (`<node>:<step>.<task>/<child id>`), and its checkpoint waits with the
// parent's task; a child paused by pendingAskUser waits in the parent's
// state.subgraphs.<node>. Resuming the parent runs this node again, which
// resumes the child where it stopped, with its answers. A child node's
// Command with graph: Command.PARENT ends the child and routes the parent.

import { EdgegraphError } from './errors.js';
import { Command } from './command.js';
import { GraphInterrupt, TASK } from './interrupt.js';

/** The child's answers among the parent task's: those for the child's pending ids. */
function childAnswers(internal) {
  const { keep, base, answers } = internal;
  const out = {};
  let any = false;
  for (const id of keep.ids) {
    const key = `${base}/${id}`;
    if (Object.prototype.hasOwnProperty.call(answers, key)) { out[id] = answers[key]; any = true; }
  }
  return any ? new Command({ resume: out }) : undefined;
}

/**
 * @param {string} name the node's name in the parent
 * @param {{ input?: Function, output?: Function, around?: (start: (options: object) => Promise<object>, ctx: object, state: object) => Promise<object> }} spec
 * @param {import('./engine.js').GraphEngine} child
 */
export function subgraphHandler(name, spec, child) {
  return async (state, engine, ctx) => {
    const internal = ctx[TASK];
    const saved = state.subgraphs?.[name];
    const options = ctx.signal ? { signal: ctx.signal } : {};
    if (ctx.configurable !== undefined) options.configurable = ctx.configurable;
    const start = (more) => {
      const o = { ...options, ...more };
      if (internal?.keep) return child.resume(internal.keep.checkpoint, childAnswers(internal), o);
      return saved ? child.resume(saved, ctx.resumeInput, o) : child.execute(spec.input ? spec.input(state, ctx) : {}, o);
    };
    // `around` (edgegraph/langgraph's compiled graph as a node) wraps the child's run: it adds run
    // options (its runId, onEvent) and reads the result before it is mapped.
    const result = spec.around ? await spec.around(start, ctx, state) : await start({});
    if (result.status === 'PAUSED' && result.interrupts?.length) {
      throw new GraphInterrupt(result.interrupts.map((i) => ({ id: `${internal.base}/${i.id}`, value: i.value })),
        { checkpoint: result.checkpoint, ids: result.interrupts.map((i) => i.id) });
    }
    if (result.status === 'PAUSED' || result.status === 'INTERRUPTED') {
      return {
        subgraphs: { [name]: result.checkpoint },
        pendingAskUser: result.state.pendingAskUser ?? { subgraph: name },
        nextNodeOverride: name,
      };
    }
    if (result.status === 'ERROR') {
      throw new EdgegraphError(result.error.code, `subgraph '${name}': ${result.error.message}`, { node: name, cause: result.error });
    }
    // A handoff (a child node's Command.PARENT): its update and goto, instead of the output mapping.
    const handoff = result.parentCommand;
    if (handoff) return new Command({ update: { ...(handoff.update ?? {}), subgraphs: { [name]: null } }, goto: handoff.goto });
    return { ...(spec.output ? spec.output(result.state, state) : {}), subgraphs: { [name]: null } };
  };
}
