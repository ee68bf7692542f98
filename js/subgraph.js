// subgraph.js: a node that runs another graph with its own state, mapped in
// and out explicitly. When the child pauses, the parent pauses (the child's
// checkpoint waits in the parent's state.subgraphs.<node>); resuming the
// parent runs this node again, which resumes the child where it stopped.

import { EdgegraphError } from './errors.js';

/**
 * @param {string} name the node's name in the parent
 * @param {{ input?: Function, output?: Function }} spec
 * @param {import('./engine.js').GraphEngine} child
 */
export function subgraphHandler(name, spec, child) {
  return async (state, engine, ctx) => {
    const saved = state.subgraphs?.[name];
    const options = ctx.signal ? { signal: ctx.signal } : {};
    const result = saved
      ? await child.resume(saved, ctx.resumeInput, options)
      : await child.execute(spec.input ? spec.input(state, ctx) : {}, options);
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
    return { ...(spec.output ? spec.output(result.state, state) : {}), subgraphs: { [name]: null } };
  };
}
