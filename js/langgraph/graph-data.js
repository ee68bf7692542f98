// graph-data.js: a graph as data, as LangGraph's getGraph() gives it: its nodes
// by id and its edges (static, joined, conditional with their path map's keys,
// a node's `ends`), from the builder's declarations.

import { START, END } from './graph.js';

/**
 * `builder`'s graph (a StateGraph's nodes, edges, joins, branches): `nodes` by id ({ id, name }),
 * `edges` ({ source, target, conditional, data: a path map's key }), and `drawMermaid`.
 */
export function graphData(builder, drawMermaid) {
  const edges = [];
  const add = (source, target, conditional, data) => edges.push(data === undefined ? { source, target, conditional } : { source, target, conditional, data });
  for (const [source, target] of builder.edges) add(source, target, false);
  for (const [sources, target] of builder.joins) for (const source of sources) add(source, target, false);
  // (A conditional edge without a path map may go to any other node, or END: drawn to each, as LangGraph's.)
  const anywhere = [...builder.nodes.keys(), END];
  for (const [source, list] of builder.branches) {
    for (const { pathMap } of list) {
      if (pathMap) for (const [key, target] of Object.entries(pathMap)) add(source, target, true, Array.isArray(pathMap) ? undefined : key);
      else for (const target of anywhere) if (target !== source) add(source, target, true);
    }
  }
  for (const [source, node] of builder.nodes) for (const target of node.options?.ends ?? []) add(source, target, true);
  const nodes = {};
  for (const id of [START, ...builder.nodes.keys(), ...(edges.some((e) => e.target === END) ? [END] : [])]) nodes[id] = { id, name: id };
  return { nodes, edges, drawMermaid };
}
