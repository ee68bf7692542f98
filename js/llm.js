// llm.js: an OpenAI-compatible chat-completions client over fetch (no SDK).
// Works with OpenAI, Ollama, vLLM, OpenRouter, LM Studio, Groq and any
// server speaking POST {baseURL}/chat/completions.
//
// The API key lives in this object only: it goes into the Authorization
// header and nowhere else (not in errors, events, results or state).

import { EdgegraphError } from './errors.js';
import { SseDecoder } from './sse.js';
import { sleep } from './timing.js';
import { endpointURL, redactURL, secretsOf, networkCause } from './llm-url.js';

export class LLMError extends EdgegraphError {
  /**
   * @param {string} code LLM_HTTP_ERROR | LLM_TIMEOUT | LLM_ABORTED | LLM_NETWORK_ERROR | LLM_BAD_RESPONSE
   * @param {string} message
   * @param {{ status?: number, providerMessage?: string, attempts?: number, url?: string, causeCode?: string, cause?: unknown }} [extra]
   */
  constructor(code, message, extra = {}) {
    super(code, message, { cause: extra.cause });
    this.name = 'LLMError';
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.providerMessage !== undefined) this.providerMessage = extra.providerMessage;
    if (extra.attempts !== undefined) this.attempts = extra.attempts;
    if (extra.url !== undefined) this.url = extra.url;
    if (extra.causeCode !== undefined) this.causeCode = extra.causeCode;
  }
}

// Only these message fields go to the server: some providers reject others
// (edgegraph's history adds an `id` to every message).
const MESSAGE_FIELDS = ['role', 'content', 'name', 'tool_calls', 'tool_call_id'];

function wireMessage(m) {
  const out = {};
  for (const k of MESSAGE_FIELDS) if (m[k] !== undefined) out[k] = m[k];
  if (out.role === 'assistant' && out.content === undefined) out.content = null;
  return out;
}

function wireTool(t) {
  if (t?.type === 'function' && t.function) return t;
  return { type: 'function', function: { name: t.name, description: t.description ?? '', parameters: t.parameters ?? { type: 'object', properties: {} } } };
}

/** Seconds or an HTTP date, to milliseconds (capped); undefined when absent or unreadable. */
function retryAfterMs(headers, capMs) {
  const v = headers?.get?.('retry-after');
  if (!v) return undefined;
  const s = Number(v);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(v) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), capMs) : undefined;
}

export class ChatClient {
  #apiKey;
  #fetch;
  #headers;
  #url;
  #shownURL;
  #secrets;

  /**
   * @param {{ baseURL?: string, apiKey?: string, model: string, defaults?: object, headers?: Record<string,string>,
   *   fetch?: typeof fetch, timeoutMs?: number, maxRetries?: number, retryBaseMs?: number, retryMaxMs?: number,
   *   streamUsage?: boolean }} config
   */
  constructor(config = {}) {
    if (!config.model) throw new EdgegraphError('INVALID_OPTIONS', 'an LLM config needs a model');
    this.model = config.model;
    const baseURL = config.baseURL ?? 'https://api.openai.com/v1';
    // Checked here, not at the first request: a typo is one clear error, not three retries.
    this.#url = endpointURL(baseURL);
    this.#shownURL = redactURL(this.#url);
    // Public, so printed by console.log(client): secret query values hidden.
    this.baseURL = redactURL(String(baseURL).replace(/\/+(?=[?#]|$)/, ''));
    this.defaults = config.defaults ?? {};
    // Private like the key: Azure's api-key and other credentials travel as headers.
    this.#headers = config.headers ?? {};
    this.timeoutMs = config.timeoutMs ?? 60_000;
    this.maxRetries = config.maxRetries ?? 2;
    this.retryBaseMs = config.retryBaseMs ?? 500;
    this.retryMaxMs = config.retryMaxMs ?? 20_000;
    this.streamUsage = config.streamUsage ?? true;
    // A reply larger than this, or a stream longer than this, is LLM_BAD_RESPONSE / LLM_TIMEOUT:
    // a server (or a man in the middle) cannot make the client read forever.
    this.maxResponseBytes = config.maxResponseBytes ?? 16 * 1024 * 1024;
    this.maxStreamMs = config.maxStreamMs ?? 10 * 60_000;
    this.#apiKey = config.apiKey;
    this.#fetch = config.fetch ?? ((...a) => globalThis.fetch(...a));
    // Whatever a server or a proxy might echo back: the key, secret query values, secret headers.
    this.#secrets = secretsOf({ apiKey: this.#apiKey, url: this.#url, headers: this.#headers });
  }

  /** Never print the key (nor a secret query value), even by accident. */
  toJSON() { return { model: this.model, baseURL: this.baseURL }; }

  /**
   * One chat completion. With `stream` (or an onToken callback) the reply is
   * read as server-sent events and each piece of text goes to onToken.
   * @returns {Promise<{ message: object, content: string|null, toolCalls: object[], finishReason: string|null, usage: object|null, model: string|null }>}
   */
  async chat(request) {
    let result;
    for await (const event of this.#events(request)) if (event.type === 'done') result = event.result;
    return result;
  }

  /** The same request as an async iterator of { type: 'token' | 'tool_call_delta' | 'done', ... }. */
  stream(request) { return this.#events({ ...request, stream: true }); }

  async *#events(request) {
    const { messages, tools, toolChoice, signal, onToken, stream: wantStream, model, responseFormat, ...extra } = request ?? {};
    delete extra.onEvent;
    if (!Array.isArray(messages)) throw new EdgegraphError('INVALID_INPUT', 'chat() needs messages');
    const stream = wantStream ?? typeof onToken === 'function';
    const body = { ...this.defaults, ...extra, model: model ?? this.model, messages: messages.map(wireMessage) };
    if (tools?.length) body.tools = tools.map(wireTool);
    // Tool options (from shared defaults) without tools: OpenAI answers 400 ("only allowed when 'tools' are specified").
    else { delete body.tool_choice; delete body.parallel_tool_calls; }
    if (toolChoice !== undefined) body.tool_choice = toolChoice;
    // { name, schema, strict, description? } from structured-output.js, as OpenAI's json_schema format.
    if (responseFormat) body.response_format = { type: 'json_schema', json_schema: responseFormat };
    if (stream) {
      body.stream = true;
      if (this.streamUsage) body.stream_options = { include_usage: true, ...(body.stream_options ?? {}) };
    }
    const response = await this.#send(body, signal, stream);
    // A server that ignores `stream` answers with one JSON body: read it as such.
    const jsonAnyway = stream && /application\/json/.test(response.res.headers?.get?.('content-type') ?? '');
    if (!stream || jsonAnyway) {
      const result = await this.#readJson(response);
      if (result.message.content) onToken?.(result.message.content);
      yield { type: 'done', result };
      return;
    }
    yield* this.#readStream(response, onToken);
  }

  /** POST with retries; resolves to { res, controller, timer, signal } once headers say 2xx. */
  async #send(body, userSignal, stream) {
    const url = this.#url;
    const where = { url: this.#shownURL };
    const headers = { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', ...this.#headers };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    const payload = JSON.stringify(body);
    for (let attempt = 1; ; attempt++) {
      const controller = new AbortController();
      const onAbort = () => controller.abort(userSignal.reason);
      if (userSignal?.aborted) throw new LLMError('LLM_ABORTED', 'the LLM request was aborted', { attempts: attempt - 1, ...where });
      userSignal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => { timedOut = true; controller.abort(); }, this.timeoutMs);
      const release = () => { clearTimeout(timer); userSignal?.removeEventListener('abort', onAbort); };
      let failure;
      try {
        const res = await this.#fetch(url, { method: 'POST', headers, body: payload, signal: controller.signal });
        if (res.ok) return { res, controller, timer, release, isTimedOut: () => timedOut, userSignal, reset: null };
        const text = await res.text().catch(() => '');
        release();
        const provider = this.#redact(providerMessage(text));
        const retryable = res.status === 429 || res.status >= 500;
        failure = new LLMError('LLM_HTTP_ERROR', `the LLM server answered ${res.status} at ${this.#shownURL}${provider ? `: ${provider}` : ''}`, { status: res.status, providerMessage: provider, attempts: attempt, ...where });
        if (retryable && attempt <= this.maxRetries) {
          await sleep(retryAfterMs(res.headers, this.retryMaxMs) ?? this.#backoff(attempt), userSignal);
          if (!userSignal?.aborted) continue;
          throw new LLMError('LLM_ABORTED', 'the LLM request was aborted', { attempts: attempt, ...where });
        }
        throw failure;
      } catch (e) {
        release();
        if (e === failure) throw e;
        if (e instanceof LLMError) throw e;
        if (userSignal?.aborted) throw new LLMError('LLM_ABORTED', 'the LLM request was aborted', { attempts: attempt, cause: userSignal.reason, ...where });
        const error = timedOut
          ? new LLMError('LLM_TIMEOUT', `no answer from the LLM server at ${this.#shownURL} within ${this.timeoutMs} ms`, { attempts: attempt, ...where })
          : this.#networkError('could not reach the LLM server', e, attempt);
        if (attempt <= this.maxRetries) { await sleep(this.#backoff(attempt), userSignal); if (!userSignal?.aborted) continue; }
        throw error;
      }
    }
  }

  #backoff(attempt) {
    // Exponential with full jitter between half and all of the step.
    const step = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (attempt - 1));
    return step / 2 + Math.random() * (step / 2);
  }

  #redact(text) {
    if (!text) return text;
    let out = redactURL(String(text));
    for (const secret of this.#secrets) out = out.split(secret).join('[redacted]');
    return out.length > 500 ? `${out.slice(0, 500)}...` : out;
  }

  /**
   * A failed fetch or read as LLM_NETWORK_ERROR naming the URL and the system error under
   * it: undici says only "fetch failed" and keeps ECONNREFUSED / ENOTFOUND in its causes.
   * The cause itself is not attached: its messages may hold the URL's secrets.
   */
  #networkError(what, e, attempts) {
    const { code, detail } = networkCause(e);
    const why = this.#redact(code && !detail.includes(code) ? `${code}: ${detail}` : detail);
    const tries = attempts > 1 ? `, after ${attempts} attempts` : '';
    return new LLMError('LLM_NETWORK_ERROR', `${what} at ${this.#shownURL} (${why})${tries}`, { attempts, url: this.#shownURL, causeCode: code });
  }

  async #readJson(sent) {
    const { res, release, isTimedOut, userSignal } = sent;
    let text;
    try {
      const declared = Number(res.headers?.get?.('content-length'));
      if (declared > this.maxResponseBytes) throw new LLMError('LLM_BAD_RESPONSE', `the LLM reply is ${declared} bytes, more than maxResponseBytes (${this.maxResponseBytes})`);
      text = await res.text();
      if (text.length > this.maxResponseBytes) throw new LLMError('LLM_BAD_RESPONSE', `the LLM reply is larger than maxResponseBytes (${this.maxResponseBytes})`);
    } catch (e) {
      if (e instanceof LLMError) throw e;
      throw this.#readFailure(e, isTimedOut(), userSignal);
    } finally { release(); }
    let data;
    try { data = JSON.parse(text); } catch { throw new LLMError('LLM_BAD_RESPONSE', 'the LLM server sent a body that is not JSON'); }
    const choice = data?.choices?.[0];
    if (!choice?.message) throw new LLMError('LLM_BAD_RESPONSE', 'the LLM reply has no choices[0].message');
    const m = choice.message;
    const message = { role: 'assistant', content: m.content ?? null };
    if (m.tool_calls?.length) message.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function?.name ?? '', arguments: c.function?.arguments ?? '' } }));
    return { message, content: message.content, toolCalls: message.tool_calls ?? [], finishReason: choice.finish_reason ?? null, usage: data.usage ?? null, model: data.model ?? null };
  }

  #readFailure(e, timedOut, userSignal) {
    const where = { url: this.#shownURL };
    if (userSignal?.aborted) return new LLMError('LLM_ABORTED', 'the LLM request was aborted', { cause: userSignal.reason, ...where });
    if (timedOut) return new LLMError('LLM_TIMEOUT', `the LLM stream from ${this.#shownURL} stalled for ${this.timeoutMs} ms`, where);
    return this.#networkError('the connection broke while reading the reply', e);
  }

  /** Server-sent events: text deltas, tool-call deltas by index, usage, finish reason. */
  async *#readStream(sent, onToken) {
    const { res, controller, release, isTimedOut, userSignal } = sent;
    let timer = null;
    let stalled = false;
    // The request timer covered the headers; from here a stall is a gap between chunks.
    const arm = () => { clearTimeout(timer); timer = setTimeout(() => { stalled = true; controller.abort(); }, this.timeoutMs); };
    release();
    arm();
    const reader = res.body.getReader();
    const sse = new SseDecoder();
    let content = '', sawContent = false, done = false;
    let finishReason = null, usage = null, model = null;
    const calls = [];
    const onAbort = () => controller.abort(userSignal.reason);
    userSignal?.addEventListener('abort', onAbort, { once: true });
    let received = 0, tooLong = false;
    const longest = setTimeout(() => { tooLong = true; controller.abort(); }, this.maxStreamMs);
    try {
      for (;;) {
        let chunk;
        try { chunk = await reader.read(); } catch (e) {
          if (tooLong) throw new LLMError('LLM_TIMEOUT', `the LLM stream went on longer than maxStreamMs (${this.maxStreamMs} ms)`);
          throw this.#readFailure(e, stalled || isTimedOut(), userSignal);
        }
        if (chunk.done) break;
        received += chunk.value.byteLength;
        if (received > this.maxResponseBytes) {
          controller.abort();
          throw new LLMError('LLM_BAD_RESPONSE', `the LLM stream sent more than maxResponseBytes (${this.maxResponseBytes})`);
        }
        arm();
        for (const payload of sse.push(chunk.value)) {
          if (payload === '[DONE]') { done = true; continue; }
          let event;
          try { event = JSON.parse(payload); } catch { throw new LLMError('LLM_BAD_RESPONSE', 'the LLM stream sent an event that is not JSON'); }
          if (event.error) throw new LLMError('LLM_HTTP_ERROR', `the LLM server reported an error mid-stream: ${this.#redact(event.error.message ?? JSON.stringify(event.error))}`);
          model ??= event.model ?? null;
          if (event.usage) usage = event.usage;
          const choice = event.choices?.[0];
          if (!choice) continue;
          if (choice.finish_reason) finishReason = choice.finish_reason;
          const delta = choice.delta ?? {};
          if (typeof delta.content === 'string' && delta.content) {
            content += delta.content;
            sawContent = true;
            onToken?.(delta.content);
            yield { type: 'token', text: delta.content };
          }
          for (const d of delta.tool_calls ?? []) {
            const i = d.index ?? calls.length;
            const slot = (calls[i] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
            if (d.id) slot.id = d.id;
            if (d.function?.name) slot.function.name += d.function.name;
            if (d.function?.arguments) slot.function.arguments += d.function.arguments;
            yield { type: 'tool_call_delta', index: i, id: slot.id, name: slot.function.name, argumentsDelta: d.function?.arguments ?? '' };
          }
        }
      }
    } finally {
      clearTimeout(timer);
      clearTimeout(longest);
      userSignal?.removeEventListener('abort', onAbort);
      reader.releaseLock?.();
    }
    if (!done && !finishReason) throw new LLMError('LLM_BAD_RESPONSE', 'the LLM stream ended before [DONE] (truncated)');
    const message = { role: 'assistant', content: sawContent ? content : null };
    const toolCalls = calls.filter(Boolean);
    if (toolCalls.length) message.tool_calls = toolCalls;
    yield { type: 'done', result: { message, content: message.content, toolCalls, finishReason, usage, model } };
  }
}

function providerMessage(text) {
  if (!text) return '';
  try {
    const j = JSON.parse(text);
    const m = j?.error?.message ?? j?.error ?? j?.message;
    if (typeof m === 'string') return m;
    if (m) return JSON.stringify(m);
  } catch { /* not JSON: the text itself */ }
  return text.trim();
}

/** A client from a config object, or the client itself. */
export function createChatClient(config) {
  return config instanceof ChatClient ? config : new ChatClient(config);
}
