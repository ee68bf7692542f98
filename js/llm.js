// llm.js: the chat client over fetch (no SDK). One client, several wire
// protocols: `provider` picks the translation (provider-*.js) between
// edgegraph's messages (llm-messages.js) and the provider's API.
//   'openai'            chat completions: OpenAI, Ollama, vLLM, OpenRouter, LM Studio, Groq (built in)
//   'openai-responses'  OpenAI's Responses API
//   'anthropic'         Anthropic's Messages API
//   'gemini'            Google's Gemini API (generateContent)
// The three others are loaded on first use by dynamic import, so a bundle
// that never names them does not carry them; a provider object imported from
// edgegraph/providers/<name> works too. An AI SDK language model, passed as
// `llm` itself, is driven through its doGenerate / doStream (provider-ai-sdk.js).
//
// The API key lives in this object only: it goes into the provider's
// authentication header and nowhere else (not in errors, events, results or state).

import { EdgegraphError } from './errors.js';
import { endpointURL, redactURL } from './llm-url.js';
import { LLMError, Transport } from './llm-transport.js';
import { openai } from './llm-openai.js';
import { argumentsObject } from './llm-messages.js';

export { LLMError };

const LOADERS = {
  'openai-responses': () => import('./provider-responses.js').then((m) => m.openaiResponses),
  anthropic: () => import('./provider-anthropic.js').then((m) => m.anthropic),
  gemini: () => import('./provider-gemini.js').then((m) => m.gemini),
};
const PROVIDER_NAMES = ['openai', ...Object.keys(LOADERS)];
// Known before the module is loaded: the client's baseURL is checked when it is made.
const DEFAULT_BASE = {
  'openai-responses': 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
};


/** A provider object, or its name (checked now: a typo is one clear error). */
function providerOf(provider) {
  if (provider === undefined || provider === 'openai') return openai;
  if (typeof provider === 'object' && provider && typeof provider.body === 'function') return provider;
  if (typeof provider === 'string' && LOADERS[provider]) return provider;
  throw new EdgegraphError('INVALID_OPTIONS', `llm.provider must be one of ${PROVIDER_NAMES.map((n) => `'${n}'`).join(', ')} or a provider object, not ${JSON.stringify(provider)}`);
}

export class ChatClient {
  #apiKey;
  #headers;
  #provider;      // a provider object, or the name of one not loaded yet
  #transport;
  #base;          // the endpoint's base URL, secrets and all (never printed)

  /**
   * @param {{ provider?: string | object, baseURL?: string, apiKey?: string, model: string, defaults?: object, headers?: Record<string,string>,
   *   fetch?: typeof fetch, timeoutMs?: number, maxRetries?: number, retryBaseMs?: number, retryMaxMs?: number,
   *   streamUsage?: boolean, maxTokens?: number }} config
   */
  constructor(config = {}) {
    if (!config.model) throw new EdgegraphError('INVALID_OPTIONS', 'an LLM config needs a model');
    this.model = config.model;
    this.#provider = providerOf(config.provider);
    this.provider = typeof this.#provider === 'string' ? this.#provider : this.#provider.name;
    const baseURL = config.baseURL ?? (typeof this.#provider === 'object' ? this.#provider.baseURL : DEFAULT_BASE[this.provider]);
    // Checked here, not at the first request: a typo is one clear error, not three retries.
    const secretURL = endpointURL(baseURL, '');
    this.#base = secretURL;
    // Public, so printed by console.log(client): secret query values hidden.
    this.baseURL = redactURL(String(baseURL).replace(/\/+(?=[?#]|$)/, ''));
    this.defaults = config.defaults ?? {};
    // Private like the key: Azure's api-key and other credentials travel as headers.
    this.#headers = config.headers ?? {};
    this.streamUsage = config.streamUsage ?? true;
    this.maxTokens = config.maxTokens;
    this.#apiKey = config.apiKey;
    this.#transport = new Transport(config, { secretURL, apiKey: config.apiKey, headers: this.#headers, provider: this.provider });
    for (const key of ['timeoutMs', 'maxRetries', 'retryBaseMs', 'retryMaxMs', 'maxResponseBytes', 'maxStreamMs']) {
      Object.defineProperty(this, key, { get: () => this.#transport[key], set: (v) => { this.#transport[key] = v; }, enumerable: true });
    }
  }

  /** Never print the key (nor a secret query value), even by accident. */
  toJSON() { return { provider: this.provider, model: this.model, baseURL: this.baseURL }; }

  /**
   * One model call. With `stream` (or an onToken callback) the reply is
   * read as server-sent events and each piece of text goes to onToken.
   * @returns {Promise<{ message: object, content: string|null, toolCalls: object[], finishReason: string|null, usage: object|null, tokens: object|null, model: string|null, provider: string }>}
   */
  async chat(request) {
    let result;
    for await (const event of this.#events(request)) if (event.type === 'done') result = event.result;
    return result;
  }

  /** The same request as an async iterator of { type: 'token' | 'tool_call_delta' | 'done', ... }. */
  stream(request) { return this.#events({ ...request, stream: true }); }

  async #dialect() {
    if (typeof this.#provider === 'string') this.#provider = await LOADERS[this.#provider]();
    return this.#provider;
  }

  async *#events(request) {
    const { messages, tools, toolChoice, responseFormat, signal, onToken, stream: wantStream, model, ...extra } = request ?? {};
    delete extra.onEvent;
    if (!Array.isArray(messages)) throw new EdgegraphError('INVALID_INPUT', 'chat() needs messages');
    const dialect = await this.#dialect();
    const stream = wantStream ?? typeof onToken === 'function';
    const modelName = model ?? this.model;
    const body = dialect.body({ messages, tools, toolChoice, responseFormat, model: modelName, stream, streamUsage: this.streamUsage, maxTokens: this.maxTokens, options: { ...this.defaults, ...extra } });
    const url = joinPath(this.#base, dialect.path(modelName, stream));
    const headers = { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', ...dialect.headers(this.#apiKey), ...this.#headers };
    const transport = this.#transport;
    const fail = (what) => { throw transport.badReply(what); };
    const failHttp = (message) => { throw new LLMError('LLM_HTTP_ERROR', transport.redact(message), { provider: this.provider }); };
    const sent = await transport.send(url, headers, body, signal);
    // A server that ignores `stream` answers with one JSON body: read it as such.
    const jsonAnyway = stream && /application\/json/.test(sent.res.headers?.get?.('content-type') ?? '');
    let result;
    if (!stream || jsonAnyway) {
      result = dialect.reply(await transport.readJson(sent), fail, failHttp);
      if (result.message.content) onToken?.(textOfMessage(result.message));
    } else {
      const decoder = dialect.decoder(fail, failHttp);
      for await (const event of transport.events(sent)) {
        for (const delta of decoder.push(event)) {
          if (delta.type === 'token') onToken?.(delta.text);
          yield delta;
        }
      }
      result = decoder.end();
    }
    const toolCalls = result.message.tool_calls ?? [];
    // Nothing runs on the strength of a malformed call (OpenAI chat's own are left to the tools, which answer the model).
    if (dialect !== openai) toolCalls.forEach((c) => checkCall(c, fail));
    yield { type: 'done', result: { ...result, content: result.message.content, toolCalls, provider: this.provider } };
  }
}

const textOfMessage = (m) => (typeof m.content === 'string' ? m.content : '');

/** The endpoint: the base URL's path + the provider's path (which may carry a query), the base's query kept. */
function joinPath(base, path) {
  const url = new URL(base);
  const [pathname, query] = path.split('?');
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${pathname}`;
  // Only then: setting a parameter re-encodes the whole query (and the base's may be a signed one).
  if (query) for (const [k, v] of new URLSearchParams(query)) url.searchParams.set(k, v);
  return url.href;
}

function checkCall(call, fail) {
  const name = call.function?.name;
  if (!call.id || !name) fail(`has a tool call without ${call.id ? 'a name' : 'an id'}`);
  argumentsObject(call.function.arguments, fail, `tool call '${name}' (${call.id})`);
}

/** A client from a config object (or an AI SDK language model), or the client itself. */
export function createChatClient(config) {
  if (config instanceof ChatClient) return config;
  if (isLanguageModel(config)) return new LanguageModelClient(config);
  return new ChatClient(config);
}

/** An object implementing the AI SDK's language-model specification (duck-typed: no dependency). */
function isLanguageModel(m) {
  return m !== null && typeof m === 'object' && typeof m.specificationVersion === 'string' && typeof m.doGenerate === 'function';
}

/** An AI SDK model as a chat client; the adapter (provider-ai-sdk.js) is loaded on first use. */
class LanguageModelClient {
  #model;
  #adapter = null;
  constructor(model) {
    this.#model = model;
    this.provider = String(model.provider ?? 'ai-sdk');
    this.model = String(model.modelId ?? '');
  }

  toJSON() { return { provider: this.provider, model: this.model }; }

  /** The same request and result as ChatClient.chat; the model's own errors become LLMErrors. */
  async chat(request) {
    const { signal, onToken, stream } = request ?? {};
    if (!Array.isArray(request?.messages)) throw new EdgegraphError('INVALID_INPUT', 'chat() needs messages');
    this.#adapter ??= await import('./provider-ai-sdk.js');
    const fail = (what) => { throw new LLMError('LLM_BAD_RESPONSE', `the ${this.provider} reply ${what}`, { provider: this.provider }); };
    let result;
    try {
      result = await this.#adapter.generate(this.#model, request, { fail, onToken, stream: stream ?? typeof onToken === 'function' });
    } catch (e) {
      if (e instanceof LLMError) throw e;
      if (signal?.aborted) throw new LLMError('LLM_ABORTED', 'the LLM request was aborted', { provider: this.provider, cause: signal.reason });
      // Not the cause itself: an SDK error may hold the request, and with it a credential.
      const status = typeof e?.statusCode === 'number' ? e.statusCode : undefined;
      throw new LLMError(status ? 'LLM_HTTP_ERROR' : 'LLM_NETWORK_ERROR', `the ${this.provider} model '${this.model}' failed${status ? ` with ${status}` : ''}: ${String(e?.message ?? e).slice(0, 500)}`, { provider: this.provider, status });
    }
    const toolCalls = result.message.tool_calls ?? [];
    toolCalls.forEach((c) => checkCall(c, fail));
    return { ...result, content: result.message.content, toolCalls, provider: this.provider };
  }
}
