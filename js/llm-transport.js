// llm-transport.js: what every HTTP provider shares. A POST with retries
// (429 and 5xx, Retry-After honoured), timeouts and abort; the reply read as
// one JSON body or as server-sent events, within maxResponseBytes and
// maxStreamMs; errors as LLMError with every secret redacted. What the bytes
// mean is the provider's business (llm.js, provider-*.js).

import { EdgegraphError } from './errors.js';
import { SseDecoder } from './sse.js';
import { sleep } from './timing.js';
import { redactURL, secretsOf, networkCause } from './llm-url.js';

export class LLMError extends EdgegraphError {
  /**
   * @param {string} code LLM_HTTP_ERROR | LLM_TIMEOUT | LLM_ABORTED | LLM_NETWORK_ERROR | LLM_BAD_RESPONSE
   * @param {string} message
   * @param {{ status?: number, providerMessage?: string, attempts?: number, url?: string, causeCode?: string, cause?: unknown, provider?: string }} [extra]
   */
  constructor(code, message, extra = {}) {
    super(code, message, { cause: extra.cause });
    this.name = 'LLMError';
    for (const key of ['status', 'providerMessage', 'attempts', 'url', 'causeCode', 'provider']) {
      if (extra[key] !== undefined) this[key] = extra[key];
    }
  }
}

/** Seconds or an HTTP date, to milliseconds (capped); undefined when absent or unreadable. */
function retryAfterMs(headers, capMs) {
  const v = headers?.get?.('retry-after');
  if (!v) return undefined;
  const s = Number(v);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(v) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), capMs) : undefined;
}

/** The human part of an error body: OpenAI's and Gemini's error.message, Anthropic's error.message too. */
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

export class Transport {
  #fetch;
  #secrets;

  /**
   * @param {{ fetch?: typeof fetch, timeoutMs?: number, maxRetries?: number, retryBaseMs?: number, retryMaxMs?: number,
   *   maxResponseBytes?: number, maxStreamMs?: number }} config
   * @param {{ secretURL: string, apiKey?: string, headers?: Record<string,string>, provider: string }} where
   */
  constructor(config, { secretURL, apiKey, headers, provider }) {
    this.timeoutMs = config.timeoutMs ?? 60_000;
    this.maxRetries = config.maxRetries ?? 2;
    this.retryBaseMs = config.retryBaseMs ?? 500;
    this.retryMaxMs = config.retryMaxMs ?? 20_000;
    // A reply larger than this, or a stream longer than this, is LLM_BAD_RESPONSE / LLM_TIMEOUT:
    // a server (or a man in the middle) cannot make the client read forever.
    this.maxResponseBytes = config.maxResponseBytes ?? 16 * 1024 * 1024;
    this.maxStreamMs = config.maxStreamMs ?? 10 * 60_000;
    this.provider = provider;
    this.#fetch = config.fetch ?? ((...a) => globalThis.fetch(...a));
    // Whatever a server or a proxy might echo back: the key, secret query values, secret headers.
    this.#secrets = secretsOf({ apiKey, url: secretURL, headers });
  }

  #error(code, message, extra = {}) {
    return new LLMError(code, message, { provider: this.provider, ...extra });
  }

  /** A reply that breaks its provider's protocol: LLM_BAD_RESPONSE naming the provider. */
  badReply(what) {
    return this.#error('LLM_BAD_RESPONSE', `the ${this.provider} reply ${this.redact(what)}`);
  }

  /** POST with retries; resolves to { res, controller, release, isTimedOut, userSignal, shownURL } once headers say 2xx. */
  async send(url, headers, body, userSignal) {
    const shownURL = redactURL(url);
    const where = { url: shownURL };
    const payload = JSON.stringify(body);
    for (let attempt = 1; ; attempt++) {
      const controller = new AbortController();
      const onAbort = () => controller.abort(userSignal.reason);
      if (userSignal?.aborted) throw this.#error('LLM_ABORTED', 'the LLM request was aborted', { attempts: attempt - 1, ...where });
      userSignal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => { timedOut = true; controller.abort(); }, this.timeoutMs);
      const release = () => { clearTimeout(timer); userSignal?.removeEventListener('abort', onAbort); };
      let failure;
      try {
        const res = await this.#fetch(url, { method: 'POST', headers, body: payload, signal: controller.signal });
        if (res.ok) return { res, controller, release, isTimedOut: () => timedOut, userSignal, shownURL };
        const text = await res.text().catch(() => '');
        release();
        const provider = this.redact(providerMessage(text));
        const retryable = res.status === 429 || res.status >= 500;
        failure = this.#error('LLM_HTTP_ERROR', `the LLM server answered ${res.status} at ${shownURL}${provider ? `: ${provider}` : ''}`, { status: res.status, providerMessage: provider, attempts: attempt, ...where });
        if (retryable && attempt <= this.maxRetries) {
          await sleep(retryAfterMs(res.headers, this.retryMaxMs) ?? this.#backoff(attempt), userSignal);
          if (!userSignal?.aborted) continue;
          throw this.#error('LLM_ABORTED', 'the LLM request was aborted', { attempts: attempt, ...where });
        }
        throw failure;
      } catch (e) {
        release();
        if (e === failure || e instanceof LLMError) throw e;
        if (userSignal?.aborted) throw this.#error('LLM_ABORTED', 'the LLM request was aborted', { attempts: attempt, cause: userSignal.reason, ...where });
        const error = timedOut
          ? this.#error('LLM_TIMEOUT', `no answer from the LLM server at ${shownURL} within ${this.timeoutMs} ms`, { attempts: attempt, ...where })
          : this.#networkError('could not reach the LLM server', e, attempt, shownURL);
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

  /** `text` with every secret of this client replaced by [redacted], cut at 500 characters. */
  redact(text) {
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
  #networkError(what, e, attempts, shownURL) {
    const { code, detail } = networkCause(e);
    const why = this.redact(code && !detail.includes(code) ? `${code}: ${detail}` : detail);
    const tries = attempts > 1 ? `, after ${attempts} attempts` : '';
    return this.#error('LLM_NETWORK_ERROR', `${what} at ${shownURL} (${why})${tries}`, { attempts, url: shownURL, causeCode: code });
  }

  #readFailure(e, timedOut, sent) {
    const where = { url: sent.shownURL };
    if (sent.userSignal?.aborted) return this.#error('LLM_ABORTED', 'the LLM request was aborted', { cause: sent.userSignal.reason, ...where });
    if (timedOut) return this.#error('LLM_TIMEOUT', `the LLM stream from ${sent.shownURL} stalled for ${this.timeoutMs} ms`, where);
    return this.#networkError('the connection broke while reading the reply', e, 1, sent.shownURL);
  }

  /** The reply as one JSON value. */
  async readJson(sent) {
    const { res, release, isTimedOut } = sent;
    let text;
    try {
      const declared = Number(res.headers?.get?.('content-length'));
      if (declared > this.maxResponseBytes) throw this.#error('LLM_BAD_RESPONSE', `the LLM reply is ${declared} bytes, more than maxResponseBytes (${this.maxResponseBytes})`);
      text = await res.text();
      if (text.length > this.maxResponseBytes) throw this.#error('LLM_BAD_RESPONSE', `the LLM reply is larger than maxResponseBytes (${this.maxResponseBytes})`);
    } catch (e) {
      if (e instanceof LLMError) throw e;
      throw this.#readFailure(e, isTimedOut(), sent);
    } finally { release(); }
    try { return JSON.parse(text); } catch { throw this.#error('LLM_BAD_RESPONSE', `the ${this.provider} server sent a body that is not JSON`); }
  }

  /** The data of each server-sent event, parsed; '[DONE]' as the string. Ends when the body ends. */
  async *events(sent) {
    const { res, controller, release, isTimedOut, userSignal } = sent;
    let timer = null;
    let stalled = false;
    // The request timer covered the headers; from here a stall is a gap between chunks.
    const arm = () => { clearTimeout(timer); timer = setTimeout(() => { stalled = true; controller.abort(); }, this.timeoutMs); };
    release();
    arm();
    const reader = res.body.getReader();
    const sse = new SseDecoder();
    const onAbort = () => controller.abort(userSignal.reason);
    userSignal?.addEventListener('abort', onAbort, { once: true });
    let received = 0, tooLong = false;
    const longest = setTimeout(() => { tooLong = true; controller.abort(); }, this.maxStreamMs);
    try {
      for (;;) {
        let chunk;
        try { chunk = await reader.read(); } catch (e) {
          if (tooLong) throw this.#error('LLM_TIMEOUT', `the LLM stream went on longer than maxStreamMs (${this.maxStreamMs} ms)`);
          throw this.#readFailure(e, stalled || isTimedOut(), sent);
        }
        if (chunk.done) break;
        received += chunk.value.byteLength;
        if (received > this.maxResponseBytes) {
          controller.abort();
          throw this.#error('LLM_BAD_RESPONSE', `the LLM stream sent more than maxResponseBytes (${this.maxResponseBytes})`);
        }
        arm();
        for (const payload of sse.push(chunk.value)) {
          if (payload === '[DONE]') { yield payload; continue; }
          let event;
          try { event = JSON.parse(payload); } catch { throw this.#error('LLM_BAD_RESPONSE', `the ${this.provider} stream sent an event that is not JSON`); }
          yield event;
        }
      }
    } finally {
      clearTimeout(timer);
      clearTimeout(longest);
      userSignal?.removeEventListener('abort', onAbort);
      reader.releaseLock?.();
    }
  }
}
