// tracing.js: OpenTelemetry spans for a run, with the GenAI semantic
// conventions: one span for the run (invoke_agent), one per node task, one
// per model call (chat) and one per tool call (execute_tool), each the child
// of the one it happens in. The tracer is the caller's (@opentelemetry/api's
// Tracer, by shape: startSpan, and span.setAttribute(s), setStatus,
// recordException, end); nothing of OpenTelemetry is imported.
//
// Parents are passed explicitly, not through a context manager: workerd and
// browsers have no AsyncLocalStorage, and a run's tasks interleave. A child
// span gets a Context (the API's interface: getValue, setValue, deleteValue)
// holding its parent under the API's span key, which is Symbol.for(...) so
// that every copy of @opentelemetry/api finds it. The run's parent is the
// `traceContext` run option when given, else whatever context is active.
//
// Prompts, replies, tool arguments and results are left out unless the
// engine has traceContent: true. The API key is never at hand here: the
// client keeps it private, and its errors are redacted before they get here.

const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
const KIND = { INTERNAL: 0, CLIENT: 2 };
const ERROR = 2; // SpanStatusCode.ERROR

/** The smallest Context: immutable values by key. */
class Context {
  #values;
  constructor(values = new Map()) { this.#values = values; }
  getValue(key) { return this.#values.get(key); }
  setValue(key, value) { return new Context(new Map(this.#values).set(key, value)); }
  deleteValue(key) { const values = new Map(this.#values); values.delete(key); return new Context(values); }
}
const ROOT = new Context();

const json = (value) => { try { return JSON.stringify(value) ?? 'null'; } catch { return '[not JSON]'; } };

function fail(span, code, message, error) {
  span.setAttribute('error.type', code);
  span.setStatus({ code: ERROR, message: `${code}: ${message}` });
  if (error) span.recordException({ name: error.name ?? 'Error', message: error.message ?? String(error), code });
}

/**
 * gen_ai.provider.name's well-known values for edgegraph's providers; an AI SDK
 * model's provider ('openai.chat', 'anthropic.messages') by its first part.
 */
const PROVIDER_NAMES = { 'openai-responses': 'openai', gemini: 'gcp.gemini', google: 'gcp.gemini', 'google-vertex': 'gcp.vertex_ai', bedrock: 'aws.bedrock', mistral: 'mistral_ai' };
function providerName(client) {
  const name = String(client.provider ?? 'openai').split('.')[0];
  return PROVIDER_NAMES[name] ?? name;
}

/** Where a client posts, for server.address / server.port (its baseURL is already redacted). */
function server(client) {
  try {
    const url = new URL(client.baseURL);
    return { 'server.address': url.hostname, 'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
  } catch { return {}; }
}

export class RunTracing {
  #tracer;
  #content;
  #parent;       // the Context the run span starts in
  #run = null;
  #runContext = null;
  #nodes = new Map();  // taskId -> { span, context }
  #attributes;

  /**
   * @param {object} tracer an OpenTelemetry Tracer
   * @param {{ content?: boolean, parent?: object, runId?: string, threadId?: string }} options
   */
  constructor(tracer, { content = false, parent, runId, threadId } = {}) {
    this.#tracer = tracer;
    this.#content = content;
    this.#parent = parent;
    this.#attributes = { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'edgegraph' };
    if (runId) this.#attributes['edgegraph.run.id'] = runId;
    if (threadId) this.#attributes['edgegraph.thread.id'] = threadId;
  }

  /** An onEvent that traces the run's events, then hands them on. */
  observe(onEvent) {
    return (event) => { this.#on(event); onEvent?.(event); };
  }

  #start(name, attributes, kind, context) {
    return this.#tracer.startSpan(name, { kind, attributes }, context);
  }

  #on(event) {
    switch (event.type) {
      case 'run_start':
        // No parent given: the tracer's own default (the active context, if a context manager keeps one:
        // the API's startSpan defaults its context parameter, which undefined leaves to the default).
        this.#run = this.#start('invoke_agent edgegraph', this.#attributes, KIND.INTERNAL, this.#parent);
        this.#runContext = (this.#parent ?? ROOT).setValue(SPAN_KEY, this.#run);
        break;
      case 'node_start': {
        const span = this.#start(`node ${event.node}`, { 'edgegraph.node': event.node, 'edgegraph.task.id': event.taskId }, KIND.INTERNAL, this.#runContext ?? ROOT);
        this.#nodes.set(event.taskId, { span, context: (this.#runContext ?? ROOT).setValue(SPAN_KEY, span) });
        break;
      }
      case 'node_end': {
        const node = this.#nodes.get(event.taskId);
        if (!node) break;
        if (event.error !== undefined) fail(node.span, event.errorCode ?? 'NODE_FAILED', event.error);
        node.span.end();
        this.#nodes.delete(event.taskId);
        break;
      }
      case 'run_end': this.#endRun(event.status, event.result?.error); break;
      default: break;
    }
  }

  #endRun(status, error) {
    if (!this.#run) return;
    this.#run.setAttribute('edgegraph.run.status', status);
    if (error) fail(this.#run, error.code ?? 'NODE_FAILED', error.message, error);
    this.#run.end();
    this.#run = null;
  }

  /** Ends what is still open (a run that threw, tasks an abort left behind). */
  finish(error) {
    for (const { span } of this.#nodes.values()) { fail(span, 'ABORTED', 'the node did not finish'); span.end(); }
    this.#nodes.clear();
    if (this.#run) this.#endRun('ERROR', error ?? { code: 'ABORTED', message: 'the run ended before its last step' });
  }

  /** What a node's context carries (ctx.trace): spans for its model and tool calls. */
  forTask(taskId) {
    const context = () => this.#nodes.get(taskId)?.context ?? this.#runContext ?? ROOT;
    return {
      chat: (client, request) => this.#chat(client, request, context()),
      tool: (call, args) => this.#tool(call, args, context()),
    };
  }

  async #chat(client, request, context) {
    const model = request.model ?? client.model;
    const span = this.#start(`chat ${model}`, {
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': providerName(client), 'gen_ai.request.model': model, ...server(client),
      ...(this.#content ? { 'gen_ai.input.messages': json(request.messages) } : {}),
    }, KIND.CLIENT, context);
    try {
      const reply = await client.chat(request);
      const usage = reply.usage ?? {};
      const attributes = { 'gen_ai.response.finish_reasons': reply.finishReason ? [reply.finishReason] : [] };
      if (reply.model) attributes['gen_ai.response.model'] = reply.model;
      // Every provider's counts in one shape (reply.tokens), else OpenAI's or Anthropic's own names.
      const input = reply.tokens?.inputTokens ?? usage.prompt_tokens ?? usage.input_tokens;
      const output = reply.tokens?.outputTokens ?? usage.completion_tokens ?? usage.output_tokens;
      if (typeof input === 'number') attributes['gen_ai.usage.input_tokens'] = input;
      if (typeof output === 'number') attributes['gen_ai.usage.output_tokens'] = output;
      if (this.#content) attributes['gen_ai.output.messages'] = json([reply.message]);
      span.setAttributes(attributes);
      return reply;
    } catch (e) {
      fail(span, e?.code ?? 'LLM_ERROR', e?.message ?? String(e), e);
      throw e;
    } finally {
      span.end();
    }
  }

  #tool(call, args, context) {
    const span = this.#start(`execute_tool ${call.function.name}`, {
      'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call.function.name, 'gen_ai.tool.call.id': call.id, 'gen_ai.tool.type': 'function',
      ...(this.#content ? { 'gen_ai.tool.call.arguments': json(args) } : {}),
    }, KIND.INTERNAL, context);
    return {
      /** The call's record (status, result or error); `thrown` when it ends the node. */
      end: (record, thrown) => {
        if (record.status !== 'ok') fail(span, thrown?.code ?? 'TOOL_ERROR', record.error ?? 'the tool failed', thrown);
        else if (this.#content) span.setAttribute('gen_ai.tool.call.result', json(record.result));
        span.end();
      },
    };
  }
}

/** A model call, in a chat span when the node's context has a tracer. */
