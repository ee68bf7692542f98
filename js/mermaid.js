// mermaid.js: draw a graph definition as a Mermaid flowchart, from the same
// walk of the edges as the browser demo's diagram (edges.js).

import { graphEdges, isEndNode } from './edges.js';
import { END } from './definition.js';

const label = (s) => String(s).replace(/"/g, '#quot;');

/** @param {any} json a normalized (JSON) graph definition */
export function toMermaid(json) {
  const names = Object.keys(json.nodes);
  const ids = new Map(names.map((n, i) => [n, `n${i}`]));
  const id = (n) => (n === '__start__' ? '__start' : n === END || isEndNode(json, n) ? '__end' : ids.get(n));
  const lines = ['flowchart TD', '  __start([start])', '  __end([end])'];
  // A node named __start__ (the LangGraph entry's input step) is the start itself: no box, no arrow to itself.
  for (const n of names) if (!isEndNode(json, n) && n !== '__start__') lines.push(`  ${ids.get(n)}["${label(n)}"]`);
  for (const e of graphEdges(json)) {
    if (e.from === '__start__' && e.to === '__start__') continue;
    if (e.conditional) lines.push(`  ${id(e.from)} -.->|"${label(e.label)}"| ${id(e.to)}`);
    else if (e.label) lines.push(`  ${id(e.from)} -->|"${label(e.label)}"| ${id(e.to)}`);
    else lines.push(`  ${id(e.from)} --> ${id(e.to)}`);
  }
  return lines.join('\n') + '\n';
}
