// diagram.js: draw a graph definition as an SVG diagram, laid out in layers
// (longest path from the start, back edges drawn as loops on the side).
// No layout library: graphs here are small, and this keeps the page light.

import { END, graphEdges, isEndNode } from 'edgegraph';

const NS = 'http://www.w3.org/2000/svg';
const W = 150, H = 40, GAP_X = 40, GAP_Y = 70;

/** Nodes and labelled edges of a (JSON) definition; END nodes become one. */
export function graphOf(def) {
  const nodes = ['__start__', ...Object.keys(def.nodes).filter((n) => !isEndNode(def, n)), END];
  // The package's own walk of the edge kinds: the same arrows as toMermaid().
  const edges = graphEdges(def);
  // Several conditions that lead to the same node: one arrow, labels joined.
  const merged = new Map();
  for (const e of edges) {
    const key = `${e.from}\u0000${e.to}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, { ...e });
    else if (e.label && !seen.label.split(' | ').includes(e.label)) seen.label = seen.label ? `${seen.label} | ${e.label}` : e.label;
  }
  return { nodes, edges: [...merged.values()] };
}

function layers({ nodes, edges }) {
  // Back edges: those that close a cycle in a depth-first walk from the start.
  const out = new Map(nodes.map((n) => [n, []]));
  for (const e of edges) out.get(e.from)?.push(e);
  const state = new Map(), back = new Set();
  const visit = (n) => {
    state.set(n, 1);
    for (const e of out.get(n) ?? []) {
      if (state.get(e.to) === 1) back.add(e);
      else if (!state.has(e.to)) visit(e.to);
    }
    state.set(n, 2);
  };
  visit('__start__');
  for (const n of nodes) if (!state.has(n)) visit(n);
  // Longest path over the forward edges.
  const layer = new Map(nodes.map((n) => [n, 0]));
  for (let changed = true, guard = 0; changed && guard < nodes.length + 1; guard++) {
    changed = false;
    for (const e of edges) {
      if (back.has(e) || e.from === e.to) continue;
      if (layer.get(e.to) < layer.get(e.from) + 1) { layer.set(e.to, layer.get(e.from) + 1); changed = true; }
    }
  }
  const last = Math.max(...[...layer.entries()].filter(([n]) => n !== END).map(([, l]) => l)) + 1;
  layer.set(END, Math.max(layer.get(END), last));
  return { layer, back };
}

/** Render `def` into `container`; returns { highlight(node), visited(node), reset() }. */
export function drawDiagram(container, def) {
  const g = graphOf(def);
  const { layer, back } = layers(g);
  const rows = [];
  for (const n of g.nodes) (rows[layer.get(n)] ??= []).push(n);
  const width = Math.max(...rows.map((r) => r?.length ?? 0)) * (W + GAP_X) + 260;
  const pos = new Map();
  rows.forEach((row, y) => row?.forEach((n, x) => {
    const rowWidth = row.length * (W + GAP_X) - GAP_X;
    pos.set(n, { x: (width - rowWidth) / 2 + x * (W + GAP_X), y: 20 + y * (H + GAP_Y) });
  }));
  const height = rows.length * (H + GAP_Y) + 20;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('class', 'diagram');
  svg.innerHTML = '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>';
  const el = (name, attrs, parent = svg) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.append(e);
    return e;
  };
  for (const e of g.edges) {
    const a = pos.get(e.from), b = pos.get(e.to);
    if (!a || !b) continue;
    let d, lx, ly;
    if (back.has(e) || e.from === e.to) {
      // A loop back up, drawn on the right of both nodes.
      const x = Math.max(a.x, b.x) + W + 30;
      d = `M${a.x + W},${a.y + H / 2} C${x},${a.y + H / 2} ${x},${b.y + H / 2} ${b.x + W},${b.y + H / 2}`;
      lx = x - 10; ly = (a.y + b.y) / 2 + H / 2;
    } else if (layer.get(e.to) - layer.get(e.from) > 1) {
      // Skips a layer: around the nodes in between, on the left.
      const x = Math.min(a.x, b.x) - 30;
      d = `M${a.x},${a.y + H / 2} C${x},${a.y + H / 2} ${x},${b.y + H / 2} ${b.x},${b.y + H / 2}`;
      lx = x - 4; ly = (a.y + b.y) / 2 + H / 2;
    } else {
      const x1 = a.x + W / 2, y1 = a.y + H, x2 = b.x + W / 2, y2 = b.y;
      d = `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`;
      lx = (x1 + x2) / 2; ly = (y1 + y2) / 2;
    }
    el('path', { d, class: `edge${e.conditional ? ' conditional' : ''}`, 'marker-end': 'url(#arrow)', 'data-from': e.from, 'data-to': e.to });
    if (e.label) {
      const skip = !back.has(e) && e.from !== e.to && layer.get(e.to) - layer.get(e.from) > 1;
      const t = el('text', { x: lx, y: ly, class: 'edge-label', 'text-anchor': skip ? 'end' : 'middle' });
      t.textContent = e.label.length > 34 ? `${e.label.slice(0, 33)}…` : e.label;
      const title = document.createElementNS(NS, 'title');
      title.textContent = e.label;
      t.append(title);
    }
  }
  for (const n of g.nodes) {
    const p = pos.get(n);
    const special = n === '__start__' || n === END;
    const group = el('g', { class: `node${special ? ' terminal' : ''}`, 'data-node': n, transform: `translate(${p.x},${p.y})`, tabindex: '0', role: 'img', 'aria-label': special ? n.replace(/_/g, '') : `node ${n}` });
    el('rect', { width: W, height: H, rx: special ? 20 : 8 }, group);
    const label = el('text', { x: W / 2, y: H / 2 + 5, 'text-anchor': 'middle' }, group);
    label.textContent = n === '__start__' ? 'start' : n === END ? 'end' : n;
  }
  container.replaceChildren(svg);
  const find = (n) => svg.querySelector(`[data-node="${CSS.escape(n)}"]`);
  return {
    highlight(n) { svg.querySelectorAll('.running').forEach((x) => x.classList.remove('running')); find(n)?.classList.add('running'); },
    visited(n) { find(n)?.classList.remove('running'); find(n)?.classList.add('visited'); },
    finish(status) { svg.querySelectorAll('.running').forEach((x) => x.classList.remove('running')); if (status === 'FINISHED') find(END)?.classList.add('visited'); },
    reset() { svg.querySelectorAll('.running, .visited').forEach((x) => x.classList.remove('running', 'visited')); },
  };
}
