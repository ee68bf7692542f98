// edges.js: the one walk over a definition's edge kinds. toMermaid() and the
// browser demo's diagram both draw from it, so a new edge kind is drawn
// everywhere or nowhere (map edges were once missing from toMermaid()).

import { END } from './definition.js';

/**
 * The arrows of a (JSON) graph definition. END nodes are one node, '__end__';
 * the entry is an arrow from '__start__'.
 * @returns {Array<{ from: string, to: string, label: string, conditional: boolean }>}
 */
export function graphEdges(def) {
  const end = def.end ?? END;
  const isEnd = (n) => n === end || def.nodes?.[n]?.kind === 'end';
  const id = (n) => (isEnd(n) ? END : n);
  const out = [{ from: '__start__', to: id(def.entryPoint), label: '', conditional: false }];
  for (const [from, e] of Object.entries(def.edges ?? {})) {
    const add = (to, label = '', conditional = false) => out.push({ from, to: id(to), label, conditional });
    if (typeof e === 'string') add(e);
    else if (Array.isArray(e)) e.forEach((t) => add(t, 'parallel'));
    else if (e.map) { add(e.to, `each of ${e.map}`, true); if (e.empty) add(e.empty, 'empty list', true); }
    else if (e.router) {
      const targets = e.targets ?? [];
      // A router that declares no targets may go anywhere: drawn to END, labelled.
      if (targets.length === 0) add(end, `${e.router}()`, true);
      targets.forEach((t) => add(t, `${e.router}()`, true));
    } else if (e.path) {
      for (const [value, t] of Object.entries(e.cases ?? {})) add(t, `${e.path} = ${value}`, true);
      if (e.default) add(e.default, 'otherwise', true);
    } else if (e.default) add(e.default);
  }
  // Where a node's Command may go (nodes.<name>.goto).
  for (const [from, spec] of Object.entries(def.nodes ?? {})) {
    for (const to of Array.isArray(spec?.goto) ? spec.goto : []) out.push({ from, to: id(to), label: 'goto', conditional: true });
  }
  return out;
}

/** Whether a node name is END in this definition. */
export function isEndNode(def, name) {
  return name === (def.end ?? END) || def.nodes?.[name]?.kind === 'end';
}
