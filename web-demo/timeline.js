// timeline.js: a thread's checkpoints as a clickable list, and the inspector
// that shows one of them: its state and what changed since its parent.

import { $ } from './render.js';

let version = 0;

/** Draw the checkpoints of `threadId` (none without one); only the newest of overlapping calls draws. */
export async function renderTimeline(engine, threadId) {
  const mine = ++version; // checkpoints arrive quickly: only the newest render draws
  const list = $('timeline');
  if (!threadId) { list.replaceChildren(); return; }
  const history = (await engine.getStateHistory(threadId)).reverse();
  if (mine !== version) return;
  list.replaceChildren();
  for (const h of history) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.checkpoint = h.checkpointId;
    const next = h.pendingTasks.length ? ` → ${h.pendingTasks.join(', ')}` : h.routing.length ? ` (routing from ${h.routing.join(', ')})` : '';
    b.textContent = `#${h.checkpointId} ${h.status.toLowerCase()}${next}`;
    b.addEventListener('click', () => inspect(engine, threadId, h.checkpointId, li));
    li.append(b);
    list.append(li);
  }
}

/** What changed between two states, one line per path (two levels deep). */
export function diff(before, after, path = '') {
  const out = [];
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    const a = before?.[k], b = after?.[k], p = path ? `${path}.${k}` : k;
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b) && path.split('.').length < 2) out.push(...diff(a, b, p));
    else if (Array.isArray(a) && Array.isArray(b) && b.length > a.length && JSON.stringify(b.slice(0, a.length)) === JSON.stringify(a)) out.push(`${p}: + ${JSON.stringify(b.slice(a.length))}`);
    else out.push(`${p}: ${JSON.stringify(a) ?? '(none)'} → ${JSON.stringify(b) ?? '(none)'}`);
  }
  return out;
}

async function inspect(engine, threadId, id, li) {
  document.querySelectorAll('#timeline li.selected').forEach((x) => x.classList.remove('selected'));
  li?.classList.add('selected');
  const at = await engine.getState(threadId, id);
  const parent = at.parentId ? await engine.getState(threadId, at.parentId) : null;
  $('inspector-title').textContent = `Step #${id}: ${at.status}`;
  $('state-view').textContent = JSON.stringify(at.state, null, 2);
  $('diff-view').textContent = parent ? diff(parent.state, at.state).join('\n') || '(nothing)' : '(the first checkpoint)';
  $('inspector').hidden = false;
  $('inspector').dataset.checkpoint = id;
}
