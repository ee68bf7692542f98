// edges.js: a LangGraph node's outgoing edges as one engine edge. Static
// targets (addEdge) and routers (addConditionalEdges) combine: a router's
// answer is a node name, a pathMap key, a Send (a node with its own input)
// or a list of those; a node with neither goes to END.

import { END } from './graph.js';
import { targetOf } from './command.js';
import { asList } from './messages.js';

/** A router's answer as targets appended to `out` (a Send, which no pathMap maps, as targetOf makes it). */
function targetsOf(answer, pathMap, out) {
  for (const a of Array.isArray(answer) ? answer : [answer]) out.push(targetOf(pathMap && !Array.isArray(pathMap) ? pathMap[a] ?? a : a));
}

/**
 * The engine edge of a node with static targets `fixed` (none, a name, or a list of several)
 * and routers `branches` ({ path, pathMap }; or none); `view`: the engine state as the routers read it;
 * `gotoOf(state)`: the node's goto waiting for them (graph-runner.js's ROUTED), which they add to.
 */
export function edgeOf(fixed, branches, view, gotoOf) {
  if (!branches?.length) {
    if (fixed === undefined) return END;
    return Array.isArray(fixed) ? [...new Set(fixed)] : fixed;
  }
  fixed = asList(fixed);
  // Synchronous paths route synchronously: no promise for the engine to wait on (most routers are).
  const from = (state, out, i) => {
    for (; i < branches.length; i++) {
      const { path, pathMap } = branches[i];
      const answer = path(view(state), {});
      if (typeof answer?.then === 'function') return answer.then((a) => { targetsOf(a, pathMap, out); return from(state, out, i + 1); });
      targetsOf(answer, pathMap, out);
    }
    return out.length ? out : [END];
  };
  const route = (state) => from(state, [...fixed, ...asList(gotoOf(state))], 0);
  // Where it may go when every router maps its answers (a pathMap): the engine's declared targets, which
  // drawMermaid() draws (a Send may still go to any node: all of a compat graph's nodes are jump targets).
  if (branches.every((b) => b.pathMap)) route.targets = [...new Set([...fixed, ...branches.flatMap((b) => Object.values(b.pathMap))])];
  return route;
}
