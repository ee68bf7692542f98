// stream.js: LangGraph's stream() over edgegraph's one stream-mode
// implementation (../stream-modes.js). What is LangGraph's alone lives here:
// the recursion counter (recursionLimit counts supersteps), and its chunk
// shapes: channels as the state, `langgraph_node` metadata, a task's
// triggers, and checkpoint snapshots as getState() gives them.

import { ModeStream, copyValue as copy } from '../langgraph-modes.js';
import { stepOf, TOKENS } from './invocations.js';
import { IterableReadableStream } from './web-stream.js';
import { GraphRecursionError } from './errors.js';
import { shownInterrupts } from './subgraph-node.js';
import { plainCall } from './messages.js';

/**
 * A run's chunks ([mode, chunk]; with subgraphs, [namespace, mode, chunk]) as LangGraph's server-sent
 * events: `event: <mode>` (`<mode>|<namespace>` for a subgraph's), `data: <the chunk as JSON>`, and a
 * failed run's `event: error`. A web ReadableStream of bytes, a Response's body as it is; cancelling
 * it stops the run.
 */
function eventStream(chunks, subgraphs) {
  const encoder = new TextEncoder();
  const send = (controller, event, data) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
  return new ReadableStream({
    async pull(controller) {
      try {
        const { value, done } = await chunks.next();
        if (done) return controller.close();
        const [ns, mode, chunk] = subgraphs ? value : [[], ...value];
        send(controller, ns.length ? `${mode}|${ns.join('|')}` : mode, chunk);
      } catch (e) {
        send(controller, 'error', { error: e?.name ?? 'Error', message: e?.message ?? JSON.stringify(e) });
        controller.close();
      }
    },
    cancel: () => chunks.return?.(),
  });
}

/** A streamed message chunk's tool calls, as a token's chunk carries them: tool_calls (parsed so far, the OpenAI shape) and LangChain's tool_call_chunks; undefined without. */
const callsOf = (m) => (m?.tool_calls?.length || m?.tool_call_chunks?.length ? { tool_calls: (m.tool_calls ?? []).map(plainCall), tool_call_chunks: m.tool_call_chunks ?? [] } : undefined);

/** One invoke()/stream() call: its supersteps, and its chunks of the modes asked for. */
export class Invocation extends ModeStream {
  // One made at load keeps the class's hidden class alive through a full GC between runs (see ../run.js's Run).
  static #shape = new Invocation({}, []);
  steps = 0;            // supersteps of nodes run in this call (LangGraph's recursion counter)
  #lastStep = -1;
  mirror;               // the run's state (the engine's mirror), seen by the first node
  initialValues = {};   // the channels the run starts from (the first checkpoint's values)
  // The run's thread (its checkpoints' snapshots name it). Data, not a closure made per run over the
  // invocation: with one, every run's objects survived minor GCs and were promoted (node --trace-gc-nvp:
  // 28 MB promoted over 600 react_agent_10x runs, 0.8 MB without), and scavenges cost ~2x.
  threadId;
  input;                // a run without a thread: its input, read by the input step (graph-runner.js)
  // A run that goes on from a pause whose values chunk waits for its first node (enter): a subgraph's
  // child resumed (runAsChild), a resume whose Command has an update (thread-resume.js), which the node's state has.
  fromPause = false;

  /**
   * A run that goes on from a pause (`fromPause`), with no input step before its first node, or its end
   * when it runs none: its values stream starts with `state`, the state it goes on from, as LangGraph's.
   */
  #resumedValues(state) {
    if (this.mirror === undefined && this.fromPause && this.values) this.push('values', copy(this.view(state)));
  }

  /**
   * @param {object} config the call's config (its subgraphs flag, recursionLimit, ...)
   * @param {string[]} modes @param {boolean} single ModeStream's
   * @param {(state: object) => object} view the channels of an engine state
   * @param {{ stream: Invocation, ns: string[] }} [parent]
   */
  constructor(config, modes, single, view, parent) {
    super({ modes, single, subgraphs: config.subgraphs === true, parent });
    // With subgraphs: true a subgraph's message chunk reaches the caller from the subgraph's own
    // namespace: the levels above it, whose nodes' updates have it again, know it (LangGraph sends it once).
    if (parent && this.subgraphs) this.seen = parent.stream.seen;
    this.shape = this;
    this.recursionLimit = config.recursionLimit ?? 25;
    this.config = config;
    this.view = view;
  }

  /**
   * A task's result (ModeStream's): its chunks go out once the engine has it (its node_end), as
   * LangGraph's once its writes are kept: a consumer that leaves on seeing them (stopping the run)
   * does not lose them, and a resume does not run the node again.
   */
  #done = new Map();
  finished(id, name, step, update, cached) { this.#done.set(id, [name, step, this.outputOf ? this.outputOf({ channels: update }) : update, cached]); }

  /**
   * A subgraph's run (runAsChild): its graph's output (GraphRunner's output()), which its chunks
   * carry, as LangGraph streams a nested graph's output channels: its updates chunks have only
   * those keys, and a step that wrote none of them has no values chunk (nor its input step).
   */
  outputOf;

  /**
   * ModeStream's token, with `calls`: the tool calls its chunk carries ({ tool_calls, ... }, as
   * LangGraph's chunk has them); its final message is then not sent for them again (seen).
   */
  token(node, taskId, text, id = taskId, tags, calls) {
    if (!calls || !this.messages) return super.token(node, taskId, text, id, tags);
    this.streamed.add(id);
    this.seen.add(id);
    this.push('messages', [{ role: 'assistant', content: text, id, ...calls }, this.meta(node, this.stepOf(taskId), taskId, tags)]);
  }

  /** ModeStream's: a token's step, LangGraph's. */
  stepOf(taskId) {
    const step = stepOf(taskId);
    if (this.stepBase === undefined) return step;
    // (The run's first step is the first asked about: the offset from the run's own count to the thread's.)
    this.#stepOffset ??= this.stepBase - step;
    return step + this.#stepOffset;
  }

  /** The thread's LangGraph step of the run's first step of nodes (graph-runner.js sets it for a run on a thread): later runs go on counting, as LangGraph's. */
  stepBase;
  #stepOffset;

  /** A LangChain callback handler (by shape: plain methods) turning the LLM tokens of node `node`'s task `taskId` into 'messages' chunks. */
  tokenHandler(node, taskId) {
    // Each model call's tags (withConfig({ tags }), the call's), which its chunks' metadata carries: a UI filters by them.
    // A call tagged 'nostream' (or 'langsmith:nostream'): null, its tokens not sent (LangGraph's way to keep an inner call out).
    const tagsOf = new Map();
    const started = (_llm, _input, runId, _parent, _extra, tags = []) => { tagsOf.set(runId, tags.includes('nostream') || tags.includes('langsmith:nostream') ? null : tags); };
    // No `name`: LangChain then wraps it as a handler of its own (fromMethods),
    // copying these flags: stream even from invoke(), and deliver tokens in order.
    return {
      [TOKENS]: true,
      lc_prefer_streaming: true,
      awaitHandlers: true,
      handleChatModelStart: started,
      handleLLMStart: started,
      // (`fields.chunk.message`: the token's message chunk, whose tool calls its chunk carries, as LangGraph's,
      // and whose id (a provider's: chatcmpl-..., msg_...) the message the model returns has too: else `run-<id>`.)
      handleLLMNewToken: (token, _idx, runId, _parent, _tags, fields) => {
        const tags = tagsOf.get(runId), message = fields?.chunk?.message;
        if (tags !== null) this.token(node, taskId, token, message?.id ?? `run-${runId}`, tags, callsOf(message));
      },
    };
  }

  /**
   * Task `taskId` of node `name` starts on the run's state `state` with `input`: a node of its
   * superstep is counted (refused past the limit), and its task chunk goes out. Returns its step (stepOf).
   */
  enter(taskId, name, state, input) {
    const step = this.stepOf(taskId);
    this.#resumedValues(state);
    this.mirror = state;
    if (step !== this.#lastStep) {
      this.#lastStep = step;
      if (++this.steps > this.recursionLimit) throw this.recursionError();
    }
    // The messages the node is given: the messages mode does not send them again when its update has them.
    if (this.messages) for (const key in input) for (const m of [input[key]].flat()) if (m?.role && m.id != null) this.seen.add(m.id);
    this.started(taskId, name, step, input);
    return step;
  }

  recursionError() {
    return new GraphRecursionError(`Recursion limit of ${this.recursionLimit} reached without hitting a stop condition. You can increase the limit by setting the "recursionLimit" config key.`);
  }

  /**
   * As LangGraph: the { __interrupt__ } chunk in the values mode too, for the modes this call asked
   * for; `up`: for those asked for above it too (a child's, which runAsChild streams in its namespace).
   */
  paused(interrupts, up) {
    // Each chunk its own copy: the modes, the invoke() result and a subgraph's chunks would share them.
    for (const mode of ['updates', 'values']) if (up || this.own.has(mode)) this.push(mode, { __interrupt__: copy(interrupts) });
  }

  /**
   * ModeStream's: a chunk of `mode` from namespace `ns` (a subgraph's). A subgraph's custom chunks
   * (config.writer) reach a caller that did not ask for subgraphs too, as its own: LangGraph's do.
   */
  push(mode, chunk, ns) {
    super.push(mode, chunk, mode === 'custom' && !this.subgraphs ? [] : ns);
  }

  /**
   * Run `runner`'s graph (graph-runner.js) as another graph's node (subgraph-node.js): `start(options)`
   * starts or resumes the engine's run; its chunks go up to the parent's stream under `ns`
   * (`base`: the node's task, which prefixes the child's interrupt ids in the parent).
   */
  static async runAsChild(runner, start, parentInv, ns, base) {
    const config = parentInv?.config ?? {};
    // No modes of its own (so its `subgraphs` flag shapes nothing): its chunks go to the parent's stream.
    const inv = new Invocation(config, [], true, runner.view, parentInv && { stream: parentInv, ns });
    inv.fromPause = true;
    if (runner.outputKeys) inv.outputOf = inv.view = (state) => runner.output(state);
    const result = await start(runner.runOptions(inv, config.configurable?.thread_id));
    // The child's interrupts, in its namespace first (ids as the parent's task has them), as LangGraph streams them.
    const shown = result.status === 'PAUSED' ? shownInterrupts(result.interrupts, `${base}/`) : [];
    if (shown.length) inv.paused(shown, true);
    return result;
  }

  /**
   * stream()'s result: the chunks as LangChain's IterableReadableStream (`stop`: called when its consumer
   * leaves); with `encoding: 'text/event-stream'`, as server-sent events (eventStream).
   */
  readable(stop) {
    const chunks = this.iterate(stop);
    return this.config.encoding === 'text/event-stream' ? eventStream(chunks, this.subgraphs) : new IterableReadableStream(chunks);
  }

  /** An edgegraph run event. */
  onEvent(event) {
    switch (event.type) {
      case 'state_update': this.stateChanged(); break;
      case 'checkpoint': this.checkpoint(event); break;
      // (A node's context emits it with its node and task: an agent node's tokens, { text }.)
      case 'llm_token': this.token(event.node, event.taskId, event.text); break;
      // A task that failed, or paused (LangGraph's result chunk lists its interrupts).
      case 'node_end':
        if (event.error || event.interrupts) {
          this.halted = true;
          this.stopped(event.taskId, event.node, this.stepOf(event.taskId), event.error ? { message: event.error, code: event.errorCode } : null, event.interrupts);
        } else {
          const done = this.#done.get(event.taskId);
          if (!done) break;
          this.#done.delete(event.taskId);
          for (const _ in done[2]) { this.#wrote = true; break; }
          super.finished(event.taskId, ...done);
        }
        break;
      // LangGraph sends a checkpoint as its step's tasks are about to run: one paused before its routes (interruptAfter), on the resume.
      case 'run_end':
        // (One that went on from a pause and ran no node: a Command's update, then the end.)
        this.#resumedValues(event.result.state);
        this.flushCheckpoint(!this.pending?.routing.length);
        break;
    }
  }

  // ---- the shape of LangGraph's chunks (stream-modes.js calls these) ----

  update(update) { return copy(update); }
  currentValues() { return copy(this.view(this.mirror)); }
  /** A messages chunk's metadata: `tags`, those of the model call (none: a node's returned message); its namespace as a task's `state` config names it. */
  meta(node, step, taskId, tags = []) {
    // (Each enclosing subgraph node's namespace, outermost first.)
    const ns = [`${node}:${taskId.slice(taskId.lastIndexOf(':') + 1)}`];
    for (let up = this.parent; up; up = up.stream.parent) ns.unshift(...up.ns);
    return { langgraph_node: node, langgraph_step: step, langgraph_checkpoint_ns: ns.join('|'), tags };
  }
  taskStart(id, name, step, input) { return { id, name, input: copy(input), triggers: [`branch:to:${name}`], interrupts: [] }; }
  // (An interrupted task wrote nothing: LangGraph shows its result as {}.)
  taskResult(id, name, step, result, error, interrupted, interrupts) { return { id, name, result: interrupted ? {} : result, interrupts: shownInterrupts(interrupts), error }; }

  // ---- checkpoints (and debug) chunks: the snapshots getStateHistory shows ----

  /**
   * Before a run in those modes: the thread's history so far, read (`read`: history.js's
   * historyReader) as getStateHistory shows it, which each record the run writes continues.
   * `from`: the checkpoint the run continues; a resume's first chunk (`resumes`) is that one, as LangGraph's.
   */
  async follow(engine, from, resumes) {
    // (history.js and numbering.js, loaded on a run's first use of these modes: what a run in the others never reads)
    const [{ historyReader, withValues, snapshotOf }, { threadHistory }] = await Promise.all([import('./history.js'), import('./numbering.js')]);
    this.snapshotOf = snapshotOf;
    this.read = historyReader(engine);
    this.last = from;
    for (const r of await threadHistory(engine, this.threadId, this.read)) if (resumes && r.checkpointId === from && !r.hidden) this.pending = r;
    if (this.pending) await withValues(engine, this.threadId, [this.pending]);
  }

  /** run.js (as the run's tap): its state, and a function giving the checkpoint's { superstep, pendingTasks, routing } (null once the run ended). */
  attach(mirror, checkpointMeta) {
    this.mirror = mirror;
    this.checkpointMeta = checkpointMeta;
  }

  result() {}   // (a tap's: the results reach the modes through the node wrappers)
  child() {}    // (a tap's: a subgraph node's run gets its own Invocation, subgraph-node.js)

  /**
   * Record `checkpointId` was written: read as getStateHistory reads it. A shown one waits for the
   * next, which may take its place (a pause or failure of its step, a fork); the one waiting goes out.
   */
  checkpoint({ checkpointId, status }) {
    // (Its superstep, pendingTasks and routing as the engine's getStateHistory has them; none: a write that ended after the run did, an aborted one's.)
    const meta = this.read && this.checkpointMeta();
    if (!meta) return;
    const r = { checkpointId, parentId: this.last, status, createdAt: Date.now(), values: copy(this.mirror), ...meta };
    this.last = checkpointId;
    this.read(r);
    if (r.skipped || r.hidden) return;
    // (A fork, a replay's first record, replaces the one it resumes from, which LangGraph does not send either.)
    if (!this.pending?.hidden && !r.fork) this.flushCheckpoint(true);
    this.pending = r;
  }

  /**
   * A step where a task failed or paused has no values chunk (the run stops there), nor one whose
   * nodes wrote no channel (a node returning {}, a Command with a goto only), as LangGraph's.
   */
  stateChanged() {
    if (!this.halted && this.#wrote) super.stateChanged();
    this.#wrote = false;
  }
  #wrote = false;   // a node of the step wrote a channel
  ran() { this.#wrote = !this.outputOf; super.ran(); }

  /** The waiting checkpoint's chunk goes out `now` (ModeStream calls this as each step's state changes: too early here). */
  flushCheckpoint(now) {
    const r = this.pending;
    if (!now || !r) return;
    this.pending = null;
    this.checkpointChunk(this.snapshotOf(this.threadId, r, this.view), r.step);
  }
}
