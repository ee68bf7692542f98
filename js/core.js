// core.js: the WebAssembly boundary. Strings cross as (pointer, length) in
// UTF-8; everything the core returns is copied out at once, because it is
// only valid until the next call on the same object. Nothing else in the JS
// layer touches wasm memory.

import { EdgegraphError } from './errors.js';
import { knownWellFormed } from './result-json.js';

const encoder = new TextEncoder();

// JSON.stringify writes a lone surrogate as an escape (\ud800), which cJSON
// rejects; the core gets U+FFFD instead, as TextEncoder does for raw ones.
// A pair of escapes (\ud83d\ude00, as Python's json.dumps or PHP's json_encode
// write a character above U+FFFF) is that character, kept: only a high one
// not followed by a low one, or a low one not after a high one, is lone.
// (An odd run of backslashes before "u" makes it an escape, not text.)
const HIGH = String.raw`\\u[dD][89abAB][0-9a-fA-F]{2}`, LOW = String.raw`\\u[dD][c-fC-F][0-9a-fA-F]{2}`;
const LONE_SURROGATE = new RegExp(String.raw`(?<!\\)((?:\\\\)*)(?:${HIGH}(?!${LOW})|(?<!(?<!\\)(?:\\\\)*${HIGH})${LOW})`, 'g');
// (One scan for the common text without any \u escape, instead of two.)
const SURROGATE_ESCAPE = /\\u[dD]/;
const wellFormed = (s) => (s.includes('\\u') && SURROGATE_ESCAPE.test(s) ? s.replace(LONE_SURROGATE, '$1\\ufffd') : s);
const decoder = new TextDecoder();
// Node's and Bun's Buffer decode a short text several times faster than
// TextDecoder, whose call costs more than the bytes (a step's patch, a
// thread's record); elsewhere, TextDecoder. Both give U+FFFD for bad bytes.
const utf8Slice = typeof globalThis.Buffer?.prototype?.utf8Slice === 'function' ? globalThis.Buffer.prototype.utf8Slice : null;
const ERROR_STRUCT_SIZE = 4 + 4096; // eg_error: eg_code code + char message[EG_MESSAGE_MAX]

// Every fallible core call returns an eg_code and fills one eg_error
// (src/edgegraph.h, "One error channel"); what it hands out comes back through
// two out-parameters: a pointer (an object, or text) and a length.

export class Core {
  /** @param {WebAssembly.Instance} instance */
  constructor(instance) {
    const x = instance.exports;
    this.x = x;
    this.memory = /** @type {WebAssembly.Memory} */ (x.memory);
    if (typeof x._initialize === 'function') x._initialize();
    this.refresh();
    this.scratchSize = 0;
    this.scratch = 0;
    this.scratchView = null;   // the scratch area as bytes (write())
    this.wrote = 0;            // the bytes writeOne() wrote
    this.outPtr = x.malloc(8); // [pointer, length]: a call's out-parameters
    this.lenPtr = this.outPtr + 4;
    this.errPtr = x.malloc(ERROR_STRUCT_SIZE);
    // Code and status names come from the core's one table (eg_codes.def),
    // read on first use: nothing to decode at startup.
    this._codeNames = null;
    this._statusNames = null;
  }

  get codeNames() { return (this._codeNames ??= this.names((c) => this.x.eg_code_name(c))); }
  get statusNames() { return (this._statusNames ??= this.names((c) => this.x.eg_status_name(c))); }
  /** Each number's name (UNKNOWN for a number the core has none for: a code only JS throws, eg_codes.def's EG_JS_CODE). */
  names(name) {
    const out = [];
    for (let c = 0; c < 64; c++) out.push(this.cString(name(c)));
    return out;
  }

  /** Called by the wasm module when memory grows: old views are detached. */
  refresh() {
    this.u8 = new Uint8Array(this.memory.buffer);
    this.u32 = new Uint32Array(this.memory.buffer);
  }

  view() {
    if (this.u8.byteLength === 0) this.refresh();
    return this.u8;
  }

  /** The 32-bit word at ptr (an out-parameter). */
  word(ptr) {
    if (this.u8.byteLength === 0) this.refresh();
    return this.u32[ptr >>> 2];
  }

  cString(ptr) {
    const u8 = this.view();
    let end = ptr;
    while (u8[end] !== 0) end++;
    return decoder.decode(u8.subarray(ptr, end));
  }

  /** Read `len` bytes at ptr as UTF-8. */
  text(ptr, len) { return utf8Slice ? utf8Slice.call(this.view(), ptr, ptr + len) : decoder.decode(this.view().subarray(ptr, ptr + len)); }

  /**
   * Write strings into the scratch area, NUL-terminated, and return
   * [ptr, len, ptr, len, ...]. Valid until the next call to write().
   */
  write(...strings) {
    let need = 0;
    for (const s of strings) need += s.length * 3 + 1; // UTF-8 worst case
    const view = this.area(need);
    const out = [];
    let at = 0;
    for (const raw of strings) {
      const { written } = encoder.encodeInto(wellFormed(raw), at ? view.subarray(at) : view);
      view[at + written] = 0;
      out.push(this.scratch + at, written);
      at += written + 1;
    }
    return out;
  }

  /**
   * Write a node's result (resultText: a text, or parts [text, string, ...,
   * text]): each text as it is, each string between them as a raw segment
   * (eg_run_submit: 0xFF, its length in four bytes, least significant first,
   * its UTF-8 bytes). Returns its pointer; its length is in `wrote`.
   */
  writeOne(result) {
    const fine = knownWellFormed(result), parts = typeof result === 'string' ? [result] : result;
    let need = 1, at = 0;
    for (const p of parts) need += p.length * 3 + 5;
    const view = this.area(need);
    for (let i = 0; i < parts.length; i++) {
      const raw = i & 1, { written } = encoder.encodeInto(raw || fine ? parts[i] : wellFormed(parts[i]), at || raw ? view.subarray(at + raw * 5) : view);
      if (raw) {
        view[at] = 0xFF;
        for (let k = 1; k < 5; k++) view[at + k] = written >>> (8 * k - 8);
      }
      at += raw * 5 + written;
    }
    view[at] = 0;
    this.wrote = at;
    return this.scratch;
  }

  /** The scratch area as bytes, at least `need` of them. */
  area(need) {
    if (need > this.scratchSize) {
      if (this.scratch) this.x.free(this.scratch);
      const size = Math.max(need, 4096, this.scratchSize * 2);
      this.scratchView = null;
      this.scratch = this.x.malloc(size);
      if (!this.scratch) { this.scratchSize = 0; throw new EdgegraphError('OUT_OF_MEMORY', 'out of WebAssembly memory'); }
      this.scratchSize = size;
    }
    // A view of the scratch area, kept until the memory grows (its views are
    // detached then) or the area moves: the common call (a node's result, one
    // text) makes no view of its own.
    let view = this.scratchView;
    if (!view || view.byteLength === 0) view = this.scratchView = this.view().subarray(this.scratch, this.scratch + this.scratchSize);
    return view;
  }

  codeName(code) { return this.codeNames[code] ?? `CODE_${code}`; }

  /** Throw the core's error (code and message from the one eg_error) unless EG_OK. */
  check(code) {
    if (!code) return;
    const message = this.cString(this.errPtr + 4);
    throw new EdgegraphError(this.codeName(code), message || 'out of WebAssembly memory');
  }

  /** The pointer the last call wrote to its first out-parameter (an object). */
  handle(code) {
    this.check(code);
    return this.word(this.outPtr);
  }

  /** The text the last call lent out, copied (it is only valid until the next call). */
  lent(code) {
    this.check(code);
    const ptr = this.word(this.outPtr);
    return this.text(ptr, this.word(this.lenPtr));
  }

  // ---- graphs ----

  graphNew(json) {
    const [p, n] = this.write(json);
    return this.handle(this.x.eg_graph_new(p, n, this.outPtr, this.errPtr));
  }
  graphHash(g) { return this.cString(this.x.eg_graph_hash(g)); }
  graphFree(g) { this.x.eg_graph_free(g); }

  // ---- runs ----

  runNew(g, input, options) {
    const [p, n, q, m] = this.write(input, options);
    return this.handle(this.x.eg_run_new(g, p, n, q, m, this.outPtr, this.errPtr));
  }
  runRestore(g, checkpoint, options) {
    const [p, n, q, m] = this.write(checkpoint, options);
    return this.handle(this.x.eg_run_restore(g, p, n, q, m, this.outPtr, this.errPtr));
  }
  runFromState(g, state, options) {
    const [p, n, q, m] = this.write(state, options);
    return this.handle(this.x.eg_run_from_state(g, p, n, q, m, this.outPtr, this.errPtr));
  }
  runResume(r, userInput) {
    const [p, n] = userInput === undefined ? [0, 0] : this.write(userInput);
    this.check(this.x.eg_run_resume(r, p, n, this.errPtr));
  }
  runApply(r, update) {
    const [p, n] = this.write(update);
    this.check(this.x.eg_run_apply(r, p, n, this.errPtr));
  }
  runSetState(r, state) {
    const [p, n] = this.write(state);
    this.check(this.x.eg_run_set_state(r, p, n, this.errPtr));
  }
  /** Advance the run: its step as one flat array (eg_run_next_flat), which step.js reads. */
  runStep(r) { return JSON.parse(this.lent(this.x.eg_run_next_flat(r, this.outPtr, this.lenPtr, this.errPtr))); }
  /** The run's graph's nodes as runStep numbers them: [[name, handler, router], ...]. */
  runGraphNodes(r) { return JSON.parse(this.lent(this.x.eg_run_graph_nodes(r, this.outPtr, this.lenPtr, this.errPtr))); }
  /** Hand over a node's result (result-json.js resultText: its JSON text, or that text in parts). */
  runSubmit(r, index, result) {
    const p = this.writeOne(result);
    this.check(this.x.eg_run_submit(r, index, p, this.wrote, this.errPtr));
  }
  runFail(r, index, json) {
    const [p, n] = this.write(json);
    this.check(this.x.eg_run_fail(r, index, p, n, this.errPtr));
  }
  runInterrupt(r) { this.x.eg_run_interrupt(r); }
  /** A stopped run's unfinished tasks forget their interrupts, answers and keep (eg_run_forget_answers). */
  runForgetAnswers(r) { this.x.eg_run_forget_answers(r); }
  /** The pending interrupts: [{ id, value, node }]. */
  runPendingInterrupts(r) { return JSON.parse(this.lent(this.x.eg_run_pending_interrupts(r, this.outPtr, this.lenPtr, this.errPtr))); }
  runRouteFrom(r, node) {
    const [p, n] = this.write(node);
    this.check(this.x.eg_run_route_from(r, p, n, this.errPtr));
  }
  runGoto(r, json) {
    const [p, n] = this.write(json);
    this.check(this.x.eg_run_goto(r, p, n, this.errPtr));
  }
  /** Task `index` paused itself: {"interrupts": [{id, value}], "keep"?}. */
  runInterruptTask(r, index, json) {
    const [p, n] = this.write(json);
    this.check(this.x.eg_run_interrupt_task(r, index, p, n, this.errPtr));
  }
  /** Answer the pending interrupts: {"resume": value or {id: value}}. */
  runAnswer(r, json) {
    const [p, n] = this.write(json);
    this.check(this.x.eg_run_answer(r, p, n, this.errPtr));
  }
  runCheckpoint(r) { return this.lent(this.x.eg_run_checkpoint(r, this.outPtr, this.lenPtr, this.errPtr)); }
  runCheckpointMeta(r) { return this.lent(this.x.eg_run_checkpoint_meta(r, this.outPtr, this.lenPtr, this.errPtr)); }
  runState(r) { return this.lent(this.x.eg_run_state(r, this.outPtr, this.lenPtr, this.errPtr)); }
  /** A thread records the run: the core keeps each step's patch for runRecord (eg_run_record_patches). */
  runRecordPatches(r) { this.x.eg_run_record_patches(r); }
  /** The run's status name (a thread's record holds it: read here, not searched for in the record's text). */
  runStatus(r) { return this.statusNames[this.x.eg_run_status(r)]; }
  /** The run's next thread record (eg_run_record): flags, and for a sealed one its checksum's seed, parent (-1: none), time and depth. */
  runRecord(r, flags, seed = 0, parent = -1, time = 0, depth = 0) { return this.lent(this.x.eg_run_record(r, flags, seed, parent, time, depth, this.outPtr, this.lenPtr, this.errPtr)); }
  runFree(r) { this.x.eg_run_free(r); }

  // ---- state manager ----

  smNew(reducers) {
    const [p, n] = this.write(reducers);
    return this.handle(this.x.eg_sm_new(p, n, this.outPtr, this.errPtr));
  }
  smFree(sm) { this.x.eg_sm_free(sm); }
  smInitialize(sm, input) {
    const [p, n] = this.write(input);
    return this.lent(this.x.eg_sm_initialize(sm, p, n, this.outPtr, this.lenPtr, this.errPtr));
  }
  smUpdate(sm, state, partition, patch) {
    const [p, n, q, , r, k] = this.write(state, partition, patch);
    return this.lent(this.x.eg_sm_update(sm, p, n, q, r, k, this.outPtr, this.lenPtr, this.errPtr));
  }
  smVisit(sm, state, node) {
    const [p, n, q, m] = this.write(state, node);
    return this.lent(this.x.eg_sm_visit(sm, p, n, q, m, this.outPtr, this.lenPtr, this.errPtr));
  }
  smMerge(sm, base, branches) {
    const [p, n, q, m] = this.write(base, branches);
    return this.lent(this.x.eg_sm_merge(sm, p, n, q, m, this.outPtr, this.lenPtr, this.errPtr));
  }

  // ---- chat history ----

  historyNew(options) {
    const [p, n] = this.write(options);
    return this.handle(this.x.eg_history_new(p, n, this.outPtr, this.errPtr));
  }
  historyFree(h) { this.x.eg_history_free(h); }
  historySetSystem(h, text, tokens) {
    const [p, n] = this.write(text);
    this.check(this.x.eg_history_set_system(h, p, n, tokens, this.errPtr));
  }
  /** Returns the message's id. */
  historyAdd(h, message, tokens) {
    const [p, n] = this.write(message);
    return this.cString(this.handle(this.x.eg_history_add(h, p, n, tokens, this.outPtr, this.errPtr)));
  }
  historyEdit(h, id, content, tokens) {
    const [p, n, q, m] = this.write(id, content);
    this.check(this.x.eg_history_edit(h, p, n, q, m, tokens, this.errPtr));
  }
  historyDeleteRange(h, start, end) {
    const [p, n, q, m] = this.write(start, end);
    this.check(this.x.eg_history_delete_range(h, p, n, q, m, this.errPtr));
  }
  historyClear(h) { this.x.eg_history_clear(h); }
  historyImport(h, messages, tokens) {
    const [p, n, q, m] = this.write(messages, tokens ?? '');
    this.check(this.x.eg_history_import(h, p, n, q, m, this.errPtr));
  }
  /** The message's JSON, or undefined when no message has that id. */
  historyGet(h, id) {
    const [p, n] = this.write(id);
    const code = this.x.eg_history_get(h, p, n, this.outPtr, this.lenPtr, this.errPtr);
    return this.codeName(code) === 'MESSAGE_NOT_FOUND' ? undefined : this.lent(code);
  }
  historyExport(h) { return this.lent(this.x.eg_history_export(h, this.outPtr, this.lenPtr, this.errPtr)); }
  historyTrim(h) { return this.lent(this.x.eg_history_trim(h, this.outPtr, this.lenPtr, this.errPtr)); }
  historyRemaining(h) { return this.x.eg_history_remaining(h); }
}
