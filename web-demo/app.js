// app.js: the browser demo. Runs agent graphs in the page (WebAssembly core,
// no server), shows them as they run, pauses for approvals, and keeps every
// step in IndexedDB so a reload, an export/import or a step back can resume.
// Model output is only ever set as text (textContent), never as HTML.

import { GraphEngine, Checkpointer, browserStore, applyPatch, approve, reject, editArguments } from 'edgegraph';
import { createScriptedFetch } from 'edgegraph/testing';
import { examples } from './examples.js';
import { drawDiagram } from './diagram.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const SIM_DELAY = Number(params.get('delay') ?? 25);   // ms between streamed chunks of the simulator
const ACTIVE = 'edgegraph-demo:active';                 // localStorage: the run in progress (no secrets)
const LLM = 'edgegraph-demo:llm';                       // sessionStorage, only when asked
const checkpointer = new Checkpointer(browserStore('edgegraph-demo'));

let settings = JSON.parse(sessionStorage.getItem(LLM) ?? 'null'); // { baseURL, model, apiKey } or null: offline
let example = examples[0];
let edited = null;          // a definition edited as JSON, or null
let engine, diagram;
let target = null;          // what resume continues: { threadId } or { checkpoint, threadId }
let view = {};              // the run's state, kept from its events
let controller = null;
let streaming = null;       // the chat bubble receiving tokens

// ---- model and engine ----

function llm() {
  if (settings) return { baseURL: settings.baseURL || 'https://api.openai.com/v1', model: settings.model || 'gpt-4o-mini', apiKey: settings.apiKey || undefined };
  return { model: 'offline-simulator', fetch: createScriptedFetch(example.offline, { delayMs: SIM_DELAY, chunkSize: 3 }) };
}

/** Functions of a JS definition by name, so an edited JSON definition can use them. */
function functionsOf(def) {
  const handlers = {}, routers = {};
  for (const [name, node] of Object.entries(def.nodes)) if (typeof node === 'function') handlers[name] = node;
  for (const [from, edge] of Object.entries(def.edges ?? {})) {
    if (typeof edge === 'function') routers[from] = edge;
    else if (typeof edge?.router === 'function') routers[from] = edge.router;
  }
  return { handlers, routers };
}

function buildEngine(json = edited) {
  const def = example.definition(llm());
  const next = json
    ? new GraphEngine(json, { ...functionsOf(def), checkpointer, maxSteps: 60 })
    : new GraphEngine(def, { checkpointer, maxSteps: 60 });
  engine?.dispose();
  engine = next;
  diagram = drawDiagram($('diagram'), engine.definition);
  if (!json) $('editor').value = JSON.stringify(engine.definition, null, 2);
}

// ---- rendering ----

function setStatus(text, status) {
  $('status').textContent = text;
  document.body.dataset.status = status ?? text;
}

function textOf(m) {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => p.text ?? `[${p.type}]`).join(' ');
  return '';
}

function renderChat() {
  const chat = $('chat');
  chat.replaceChildren();
  for (const m of view.messages ?? []) {
    const div = document.createElement('div');
    div.className = `msg ${m.role}`;
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = m.role === 'tool' ? `tool result (${m.tool_call_id})` : m.role;
    div.append(who);
    let text = textOf(m);
    for (const c of m.tool_calls ?? []) text += `${text ? '\n' : ''}calls ${c.function.name}(${c.function.arguments})`;
    div.append(document.createTextNode(text));
    chat.append(div);
  }
  streaming = null;
  chat.scrollTop = chat.scrollHeight;
}

function streamToken(text) {
  if (!streaming) {
    streaming = document.createElement('div');
    streaming.className = 'msg assistant streaming';
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = 'assistant (streaming)';
    streaming.append(who, document.createTextNode(''));
    $('chat').append(streaming);
  }
  streaming.lastChild.textContent += text;
  $('chat').scrollTop = $('chat').scrollHeight;
}

function showPending() {
  $('approval').hidden = true;
  $('question').hidden = true;
  const p = view.pendingAskUser;
  if (!p) return;
  if (p.type === 'tool_approval') {
    const list = $('approval-calls');
    list.replaceChildren();
    for (const c of p.toolCalls) {
      const line = document.createElement('pre');
      line.textContent = `${c.name}${c.needsApproval ? ' (needs approval)' : ''}\n${JSON.stringify(c.arguments, null, 2)}`;
      list.append(line);
    }
    const first = p.toolCalls.find((c) => c.needsApproval) ?? p.toolCalls[0];
    $('approval-args').value = JSON.stringify(first.arguments, null, 2);
    $('approval').dataset.callId = first.id;
    $('approval').hidden = false;
    $('approve').focus();
  } else {
    $('question-text').textContent = p.question ?? 'The graph asks:';
    $('question').hidden = false;
    $('answer').focus();
  }
}

function showError(error) {
  const panel = $('error-panel');
  if (!error) { panel.hidden = true; return; }
  panel.textContent = error.node ? `Node '${error.node}' failed: ${error.message} (${error.code})` : `${error.message} (${error.code})`;
  panel.hidden = false;
}

let timelineVersion = 0;
async function renderTimeline() {
  const version = ++timelineVersion; // checkpoints arrive quickly: only the newest render draws
  const list = $('timeline');
  if (!target?.threadId) { list.replaceChildren(); return; }
  const history = (await engine.getStateHistory(target.threadId)).reverse();
  if (version !== timelineVersion) return;
  list.replaceChildren();
  for (const h of history) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.checkpoint = h.checkpointId;
    const next = h.pendingTasks.length ? ` → ${h.pendingTasks.join(', ')}` : h.routing.length ? ` (routing from ${h.routing.join(', ')})` : '';
    b.textContent = `#${h.checkpointId} ${h.status.toLowerCase()}${next}`;
    b.addEventListener('click', () => inspect(h.checkpointId, li));
    li.append(b);
    list.append(li);
  }
}

function diff(before, after, path = '') {
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

async function inspect(id, li) {
  document.querySelectorAll('#timeline li.selected').forEach((x) => x.classList.remove('selected'));
  li?.classList.add('selected');
  const at = await engine.getState(target.threadId, id);
  const parent = at.parentId ? await engine.getState(target.threadId, at.parentId) : null;
  $('inspector-title').textContent = `Step #${id}: ${at.status}`;
  $('state-view').textContent = JSON.stringify(at.state, null, 2);
  $('diff-view').textContent = parent ? diff(parent.state, at.state).join('\n') || '(nothing)' : '(the first checkpoint)';
  $('inspector').hidden = false;
  $('inspector').dataset.checkpoint = id;
}

// ---- running ----

function busy(on) {
  $('run').disabled = on;
  $('stop').disabled = !on;
  $('example').disabled = on;
  $('restart-here').disabled = on;
  for (const id of ['approve', 'approve-edited', 'reject']) $(id).disabled = on;
}

const options = () => ({
  threadId: target.threadId,
  signal: controller.signal,
  onEvent(e) {
    if (e.type === 'node_start') { diagram.highlight(e.node); setStatus(`running ${e.node}`, 'RUNNING'); }
    else if (e.type === 'node_end') diagram.visited(e.node);
    else if (e.type === 'state_update') { applyPatch(view, e.patch); renderChat(); }
    else if (e.type === 'llm_token') streamToken(e.text);
    else if (e.type === 'checkpoint') renderTimeline();
  },
});

let runsDone = 0; // document.body.dataset.runs: lets a test wait for "this run", not "any run"

async function drive(start) {
  controller = new AbortController();
  busy(true);
  setStatus('running', 'RUNNING');
  showError(null);
  $('approval').hidden = true;
  $('question').hidden = true;
  localStorage.setItem(ACTIVE, JSON.stringify({ example: example.id, threadId: target.threadId, edited }));
  try {
    const result = await start();
    view = result.state;
    renderChat();
    diagram.finish(result.status);
    setStatus(result.status.toLowerCase(), result.status);
    showError(result.status === 'ERROR' || (result.status === 'INTERRUPTED' && result.error?.code !== 'ABORTED') ? result.error : null);
    if (result.status === 'PAUSED') showPending();
    if (result.status === 'FINISHED') localStorage.removeItem(ACTIVE);
    target = { threadId: target.threadId };
  } catch (e) {
    showError({ code: e.code ?? 'ERROR', message: e.message, node: e.node });
    setStatus('error', 'ERROR');
  } finally {
    busy(false);
    $('export').disabled = false;
    await renderTimeline();
    document.body.dataset.runs = String(++runsDone);
  }
}

function resumeWith(input) {
  const from = target.checkpoint ?? { threadId: target.threadId };
  return drive(() => engine.resume(from, input, options()));
}

function startRun() {
  target = { threadId: `run-${Date.now().toString(36)}` };
  const input = example.input($('input').value.trim());
  view = structuredClone(input);
  diagram.reset();
  renderChat();
  $('inspector').hidden = true;
  return drive(() => engine.execute(input, options()));
}

// ---- wiring ----

function selectExample(id, json = null) {
  example = examples.find((e) => e.id === id) ?? examples[0];
  $('example').value = example.id;
  $('about').textContent = example.about;
  $('input').placeholder = example.placeholder;
  edited = json;
  buildEngine();
  view = {};
  renderChat();
  $('timeline').replaceChildren();
  $('inspector').hidden = true;
  showError(null);
  $('approval').hidden = true;
  $('question').hidden = true;
  setStatus('ready', 'READY');
}

for (const e of examples) $('example').append(new Option(e.title, e.id));
$('example').addEventListener('change', () => selectExample($('example').value));
$('run-form').addEventListener('submit', (ev) => { ev.preventDefault(); startRun(); });
$('input').addEventListener('keydown', (ev) => { if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); if (!$('run').disabled) startRun(); } });
$('stop').addEventListener('click', () => controller?.abort());
$('approve').addEventListener('click', () => resumeWith(approve()));
$('approve-edited').addEventListener('click', () => {
  let args;
  try { args = JSON.parse($('approval-args').value); } catch (e) { showError({ code: 'INVALID_INPUT', message: `the edited arguments are not JSON: ${e.message}` }); return; }
  resumeWith(editArguments(args, $('approval').dataset.callId));
});
$('reject').addEventListener('click', () => resumeWith(reject($('approval-reason').value || 'rejected')));
$('answer-form').addEventListener('submit', (ev) => { ev.preventDefault(); resumeWith({ role: 'user', content: $('answer').value }); });
$('restart-here').addEventListener('click', () => {
  const id = Number($('inspector').dataset.checkpoint);
  diagram.reset();
  drive(() => engine.resume({ threadId: target.threadId, checkpointId: id }, undefined, options()));
});

// Definition editor: validated by the core before anything runs.
for (const [tab, panel] of [['tab-diagram', 'diagram'], ['tab-editor', 'editor-panel']]) {
  $(tab).addEventListener('click', () => {
    for (const [t, p] of [['tab-diagram', 'diagram'], ['tab-editor', 'editor-panel']]) { $(t).setAttribute('aria-selected', String(t === tab)); $(p).hidden = p !== panel; }
  });
}
$('editor-apply').addEventListener('click', () => {
  $('editor-errors').textContent = '';
  let json;
  try { json = JSON.parse($('editor').value); } catch (e) { $('editor-errors').textContent = `INVALID_JSON: ${e.message}`; return; }
  try {
    buildEngine(json);
    edited = json;
    $('editor-errors').textContent = '';
    setStatus('definition applied', 'READY');
  } catch (e) {
    $('editor-errors').textContent = `${e.code}: ${e.message}${e.node ? `\nat node '${e.node}'` : ''}`;
  }
});
$('editor-reset').addEventListener('click', () => { edited = null; $('editor-errors').textContent = ''; buildEngine(null); });

// Export and import: the latest checkpoint as a file (no key inside: keys never enter state).
$('export').addEventListener('click', async () => {
  const latest = await checkpointer.load(target.threadId);
  const blob = new Blob([JSON.stringify({ edgegraph: 'demo-export', version: 1, example: example.id, edited, checkpoint: latest.checkpoint }, null, 1)], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `edgegraph-${target.threadId}.json`;
  a.click();
  URL.revokeObjectURL(a.href);
});
$('import').addEventListener('change', async () => {
  const file = $('import').files[0];
  if (!file) return;
  try {
    const data = JSON.parse(await file.text());
    if (data.edgegraph !== 'demo-export' || typeof data.checkpoint !== 'string') throw new Error('not an edgegraph demo export');
    selectExample(data.example, data.edited ?? null);
    const cp = JSON.parse(data.checkpoint);
    target = { threadId: `import-${Date.now().toString(36)}`, checkpoint: data.checkpoint };
    view = cp.state;
    renderChat();
    setStatus(`imported (${cp.status.toLowerCase()})`, `IMPORTED_${cp.status}`);
    if (cp.status === 'PAUSED') showPending();
    else if (cp.status !== 'FINISHED') await resumeWith(undefined);
  } catch (e) {
    showError({ code: e.code ?? 'INVALID_CHECKPOINT', message: e.message });
  } finally {
    $('import').value = '';
  }
});

// Settings: the key stays in this tab.
$('settings-open').addEventListener('click', () => {
  $('s-base').value = settings?.baseURL ?? '';
  $('s-model').value = settings?.model ?? '';
  $('s-key').value = settings?.apiKey ?? '';
  $('s-remember').checked = !!sessionStorage.getItem(LLM);
  $('settings').showModal();
});
$('settings').addEventListener('close', () => {
  const action = $('settings').returnValue;
  if (action === 'save') {
    settings = { baseURL: $('s-base').value.trim(), model: $('s-model').value.trim(), apiKey: $('s-key').value };
    if ($('s-remember').checked) sessionStorage.setItem(LLM, JSON.stringify(settings));
    else sessionStorage.removeItem(LLM);
  } else if (action === 'offline') {
    settings = null;
    sessionStorage.removeItem(LLM);
  } else return;
  $('s-key').value = '';
  $('model-badge').textContent = settings ? `${settings.model || 'gpt-4o-mini'} @ ${new URL(settings.baseURL || 'https://api.openai.com/v1').host}` : 'offline simulator';
  buildEngine();
});

// A run left behind by a reload (or a closed tab): offer to continue it.
async function offerResume() {
  const active = JSON.parse(localStorage.getItem(ACTIVE) ?? 'null');
  if (!active) return;
  const latest = await checkpointer.load(active.threadId).catch(() => undefined);
  if (!latest || latest.status === 'FINISHED') { localStorage.removeItem(ACTIVE); return; }
  const title = examples.find((e) => e.id === active.example)?.title ?? active.example;
  $('resume-text').textContent = `A run of "${title}" stopped (${latest.status.toLowerCase()}, checkpoint #${latest.id}). Resume it?`;
  $('resume-banner').hidden = false;
  $('resume-run').focus();
  $('resume-run').onclick = async () => {
    $('resume-banner').hidden = true;
    selectExample(active.example, active.edited ?? null);
    target = { threadId: active.threadId };
    view = latest.state;
    renderChat();
    await renderTimeline();
    if (latest.status === 'PAUSED') { setStatus('paused', 'PAUSED'); showPending(); $('export').disabled = false; }
    else await resumeWith(undefined);
  };
  $('resume-discard').onclick = () => { localStorage.removeItem(ACTIVE); $('resume-banner').hidden = true; };
}

selectExample(params.get('example') ?? examples[0].id);
if (settings) $('model-badge').textContent = `${settings.model || 'gpt-4o-mini'} (from this tab)`;
offerResume();
document.body.dataset.ready = 'true';
