// mermaid.js: draw a graph definition as a Mermaid flowchart.

const label = (s) => String(s).replace(/"/g, '#quot;');

/** @param {any} json a normalized (JSON) graph definition */
export function toMermaid(json) {
  const end = json.end ?? '__end__';
  const names = Object.keys(json.nodes);
  const ids = new Map(names.map((n, i) => [n, `n${i}`]));
  const isEnd = (n) => n === end || json.nodes[n]?.kind === 'end';
  const id = (n) => (isEnd(n) ? '__end' : ids.get(n));
  const lines = ['flowchart TD', '  __start([start])', '  __end([end])'];
  for (const n of names) if (!isEnd(n)) lines.push(`  ${ids.get(n)}["${label(n)}"]`);
  lines.push(`  __start --> ${id(json.entryPoint)}`);
  for (const [from, edge] of Object.entries(json.edges ?? {})) {
    const src = id(from);
    if (typeof edge === 'string') lines.push(`  ${src} --> ${id(edge)}`);
    else if (Array.isArray(edge)) for (const t of edge) lines.push(`  ${src} --> ${id(t)}`);
    else if (edge.router) {
      const targets = edge.targets ?? [];
      if (targets.length === 0) lines.push(`  ${src} -.->|"${label(edge.router)}()"| __end`);
      for (const t of targets) lines.push(`  ${src} -.->|"${label(edge.router)}()"| ${id(t)}`);
    } else if (edge.path) {
      for (const [value, t] of Object.entries(edge.cases ?? {})) lines.push(`  ${src} -.->|"${label(edge.path)} = ${label(value)}"| ${id(t)}`);
      if (edge.default) lines.push(`  ${src} -.->|"otherwise"| ${id(edge.default)}`);
    } else if (edge.default) lines.push(`  ${src} --> ${id(edge.default)}`);
  }
  return lines.join('\n') + '\n';
}
