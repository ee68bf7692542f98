// app.js: the browser demo. Runs agent graphs in the page (WebAssembly core,
// no server), shows them as they run, pauses for approvals, and keeps every
// step in IndexedDB so a reload, an export/import or a step back can resume.
// This file drives runs and wires the page; render.js draws, timeline.js
// shows checkpoints, settings.js picks the model, transfer.js exports/imports.

import { GraphEngine, Checkpointer, browserStore, applyPatch, approve, reject, editArguments } from 'edgegraph';
import { createScriptedFetch } from 'edgegraph/testing';
import { examples } from './examples.js';
import { drawDiagram } from './diagram.js';
import { $, setStatus, renderChat, streamToken, showPending, hidePending, showError, busy } from './render.js';
import { renderTimeline } from './timeline.js';
import { currentSettings, wireSettings } from './settings.js';
import { wireTransfer } from './transfer.js';

const params = new URLSearchParams(location.search);
const SIM_DELAY = Number(params.get('delay') ?? 25);   // ms between streamed chunks of the simulator
const ACTIVE = 'edgegraph-demo:active';                 // localStorage: the run in progress (no secrets)
const checkpointer = new Checkpointer(browserStore('edgegraph-demo'));

let example = examples[0];
let edited = null;          // a definition edited as JSON, or null
let engine, diagram;
let target = null;          // what resume continues: { threadId } or { checkpoint, threadId }
let view = {};              // the run's state, kept from its events
let controller = null;

// ---- model and engine ----

function llm() {
  const settings = currentSettings();
  if (settings) {
    const provider = settings.provider ?? 'openai';
    // Anthropic answers a page's request (CORS) only when it says it means to call from a browser.
    const headers = provider === 'anthropic' ? { 'anthropic-dangerous-direct-browser-access': 'true' } : undefined;
    return { provider, baseURL: settings.baseURL || undefined, model: settings.model || 'gpt-4o-mini', apiKey: settings.apiKey || undefined, headers };
  }
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

const timeline = () => renderTimeline(engine, target?.threadId);

/** One model call's tokens, as its own line under the steps. */
function showUsage(e) {
  const li = document.createElement('li');
  li.textContent = `${e.node}: ${e.inputTokens} in${e.cachedTokens ? ` (${e.cachedTokens} cached)` : ''}, ${e.outputTokens} out · ${e.provider}`;
  $('usage').append(li);
}

// ---- running ----

const options = () => ({
  threadId: target.threadId,
  signal: controller.signal,
  onEvent(e) {
    if (e.type === 'node_start') { diagram.highlight(e.node); setStatus(`running ${e.node}`, 'RUNNING'); }
    else if (e.type === 'node_end') diagram.visited(e.node);
    else if (e.type === 'state_update') { applyPatch(view, e.patch); renderChat(view); }
    else if (e.type === 'llm_token') streamToken(e.text);
    else if (e.type === 'llm_usage') showUsage(e);
    else if (e.type === 'checkpoint') timeline();
  },
});

let runsDone = 0; // document.body.dataset.runs: lets a test wait for "this run", not "any run"

async function drive(start) {
  controller = new AbortController();
  busy(true);
  setStatus('running', 'RUNNING');
  showError(null);
  hidePending();
  localStorage.setItem(ACTIVE, JSON.stringify({ example: example.id, threadId: target.threadId, edited }));
  try {
    const result = await start();
    view = result.state;
    renderChat(view);
    diagram.finish(result.status);
    setStatus(result.status.toLowerCase(), result.status);
    showError(result.status === 'ERROR' || (result.status === 'INTERRUPTED' && result.error?.code !== 'ABORTED') ? result.error : null);
    if (result.status === 'PAUSED') showPending(view);
    if (result.status === 'FINISHED') localStorage.removeItem(ACTIVE);
    target = { threadId: target.threadId };
  } catch (e) {
    showError({ code: e.code ?? 'ERROR', message: e.message, node: e.node });
    setStatus('error', 'ERROR');
  } finally {
    busy(false);
    $('export').disabled = false;
    await timeline();
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
  renderChat(view);
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
  renderChat(view);
  $('timeline').replaceChildren();
  $('usage').replaceChildren();
  $('inspector').hidden = true;
  showError(null);
  hidePending();
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

wireTransfer({
  exported: async () => ({ example: example.id, edited, checkpoint: (await checkpointer.load(target.threadId)).checkpoint, threadId: target.threadId }),
  async onImport(data) {
    selectExample(data.example, data.edited ?? null);
    const cp = JSON.parse(data.checkpoint);
    target = { threadId: `import-${Date.now().toString(36)}`, checkpoint: data.checkpoint };
    view = cp.state;
    renderChat(view);
    setStatus(`imported (${cp.status.toLowerCase()})`, `IMPORTED_${cp.status}`);
    if (cp.status === 'PAUSED') showPending(view);
    else if (cp.status !== 'FINISHED') await resumeWith(undefined);
  },
  onError: showError,
});

wireSettings(() => buildEngine());

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
    renderChat(view);
    await timeline();
    if (latest.status === 'PAUSED') { setStatus('paused', 'PAUSED'); showPending(view); $('export').disabled = false; }
    // The run that wrote it died with the old page: take the thread over (else THREAD_BUSY).
    else await drive(() => engine.resume({ threadId: active.threadId }, undefined, { ...options(), recover: true }));
  };
  $('resume-discard').onclick = () => { localStorage.removeItem(ACTIVE); $('resume-banner').hidden = true; };
}

selectExample(params.get('example') ?? examples[0].id);
offerResume();
document.body.dataset.ready = 'true';
