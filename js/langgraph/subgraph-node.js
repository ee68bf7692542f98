// subgraph-node.js: a compiled graph of this entry used as another's node
// (addNode('child', compiledChild)), as edgegraph's own subgraph node
// (js/subgraph.js). The parent's checkpoint holds the child's while it is
// paused: an interrupt() in the child pauses the parent (ids
// `<node>:<task>/<child id>`) and a resume continues inside the child; a
// breakpoint in the child pauses the parent with no interrupts; a child
// compiled with `checkpointer: true` keeps its state across calls. The keys the
// two states share pass in and out, as in LangGraph: the child gets the
// parent's values as its input, the parent gets the child's output as the
// node's update, and a child node's Command.PARENT adds its update to that
// and routes the parent.

import { invocationIn, Invocation, loadInvocation } from './invocations.js';
import { updateOf } from './command.js';

// The interrupt a child paused at a breakpoint leaves with its parent's task (js/subgraph.js's
// holdPause): it needs no answer, and LangGraph shows none.
export const BREAKPOINT = '__breakpoint__';

/** The interrupts a caller sees, as { id, value }: those of interrupt() calls, not a child's breakpoint; `prefix` goes before each id. */
export const shownInterrupts = (list = [], prefix = '') => list.filter((i) => !i.id.endsWith(`/${BREAKPOINT}`)).map(({ id, value }) => ({ id: prefix + id, value }));

/**
 * The engine's node spec for child runner `child` under the name `name`.
 * `parent` is the parent's runner (graph-runner.js): its view(state), toUpdate(values, node),
 * combine(key, a, b).
 */
export function subgraphNodeSpec(name, child, parent) {
  const outputOf = (childState) => parent.toUpdate(child.output(childState), name);
  const inputOf = (state, ctx) => (ctx.arg !== undefined ? ctx.arg : parent.view(state));
  return {
    kind: 'subgraph',
    graph: child.engine,
    persist: child.persistent,
    holdPause: BREAKPOINT,
    // A Send's argument, else the parent's values: the child's input step keeps the keys it has. A child
    // that keeps no state across calls starts each from defaults made for it (a persistent one, from its own).
    input: (state, ctx) => (child.persistent ? { __start__: inputOf(state, ctx) } : { __start__: inputOf(state, ctx), channels: child.defaults() }),
    output: (childState) => ({ channels: outputOf(childState) }),
    around: async (start, ctx, state) => {
      const inv = invocationIn(ctx);
      const step = inv?.enter(ctx.taskId, name, state, inputOf(state, ctx));
      // The child's namespace: `<node>:<step>.<index>` (stable across resumes, as the interrupt ids
      // and getState's checkpoint_ns have it); a persistent child's is its node's name alone, as LangGraph's.
      const base = `${name}:${ctx.taskId.slice(ctx.taskId.lastIndexOf(':') + 1)}`;
      const result = await (Invocation ?? await loadInvocation()).runAsChild(child, start, inv, [child.persistent ? name : base], base);
      if (result.parentCommand) {
        // LangGraph writes the child's values and the Command's update, in that order, in one step.
        const writes = [outputOf(result.state), parent.toUpdate(result.parentCommand.update?.channels ?? {}, name)];
        const update = updateOf(writes.flatMap(Object.entries), parent.combine);
        result.parentCommand = { ...result.parentCommand, update: { channels: update } };
        // (Its messages are no chunks of the messages mode: LangGraph streams none a Command.PARENT carries.)
        if (inv) for (const v of Object.values(update)) for (const m of [v].flat()) if (m?.id != null) inv.seen.add(m.id);
        inv?.finished(ctx.taskId, name, step, update);
      } else if (result.status === 'FINISHED') {
        inv?.finished(ctx.taskId, name, step, outputOf(result.state));
      }
      return result;
    },
  };
}
