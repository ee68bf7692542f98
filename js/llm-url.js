// llm-url.js: a provider's endpoint URL from a baseURL, the same URL fit to
// print (secret query values hidden), and the system error under a failed
// fetch. Kept apart from llm.js: this is what decides what an error may show.

import { EdgegraphError } from './errors.js';

// Query parameters and headers whose values are credentials (key, api-key,
// api_key, token, sig, secret, ...). Others, such as api-version, stay readable.
const SECRET_WORDS = 'key|token|secret|sig|pass|auth|credential|session|cookie';
const SECRET_NAME = new RegExp(SECRET_WORDS, 'i');
// name=value pairs in any text (a URL, or a message quoting one) whose name is secret.
const SECRET_PAIR = new RegExp(`([?&;][^=&#\\s]*?(?:${SECRET_WORDS})[^=&#\\s]*=)[^&#\\s'"]*`, 'gi');
// user:password@ at the start of a URL, with or without its scheme.
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)?[^/?#@\s]*@/i;

/** `text` with the values of secret query parameters replaced by [redacted]. */
export function redactURL(text) {
  return String(text).replace(SECRET_PAIR, '$1[redacted]');
}

/**
 * The URL to POST to: the baseURL's path + `path` (chat completions' by default), its query kept
 * (Azure's ?api-version=), its fragment dropped. An absolute http(s) URL; in a
 * page or a worker also a root path ('/v1': a same-origin proxy that holds the key).
 * @returns {string}
 */
export function endpointURL(baseURL, path = '/chat/completions') {
  const raw = String(baseURL);
  const pageOrigin = /^\/(?!\/)/.test(raw) ? originOfPage() : undefined;
  const shown = redactURL(raw).replace(USERINFO, '$1');
  if (!/^https?:\/\/[^/?#]/i.test(raw) && !pageOrigin) {
    const local = /^(localhost|127\.|\[::1\]|0\.0\.0\.0)/i.test(shown);
    const fix = !raw || /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? '' : `: did you mean '${local ? 'http' : 'https'}://${shown}'?`;
    throw new EdgegraphError('INVALID_OPTIONS', `baseURL '${shown}' is not an http:// or https:// URL${fix}`);
  }
  let url;
  try { url = new URL(raw, pageOrigin); } catch { throw new EdgegraphError('INVALID_OPTIONS', `baseURL '${shown}' is not a valid URL`); }
  // fetch refuses such URLs, and the password would be printed with every error.
  if (url.username || url.password) throw new EdgegraphError('INVALID_OPTIONS', `baseURL '${shown}' holds a user name or password: pass the key as apiKey (or in headers)`);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.hash = '';
  return url.href;
}

/** The page's (or worker's) origin; none in Node, Workers, or Deno without --location (whose getter throws). */
function originOfPage() {
  try { return globalThis.location?.origin; } catch { return undefined; }
}

/** Values that must never be printed: the key, secret query values, secret header values. */
export function secretsOf({ apiKey, url, headers }) {
  const secrets = [];
  if (apiKey) secrets.push(String(apiKey));
  for (const [name, value] of new URL(url).searchParams) if (SECRET_NAME.test(name) && value) secrets.push(value);
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!SECRET_NAME.test(name) || !value) continue;
    secrets.push(String(value));
    // "Bearer sk-..." is also echoed without its scheme.
    const token = String(value).split(' ').at(-1);
    if (token.length >= 8) secrets.push(token);
  }
  // Longest first: a secret that contains another is hidden whole.
  return secrets.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
}

/**
 * The system error code and the most precise message under a failed fetch.
 * Node's fetch (undici) throws TypeError('fetch failed') whose `cause` holds
 * the socket's error (code ECONNREFUSED, ENOTFOUND, ...), at times wrapped in an
 * AggregateError with one error per address tried.
 * @returns {{ code: string | undefined, detail: string }}
 */
export function networkCause(error) {
  let code, detail;
  const seen = new Set();
  for (let e = error; e && typeof e === 'object' && !seen.has(e); e = e.cause ?? e.errors?.[0]) {
    seen.add(e);
    if (!code && typeof e.code === 'string') code = e.code;
    if (typeof e.message === 'string' && e.message && e.message !== 'fetch failed') detail = e.message;
  }
  if (error && typeof error !== 'object') detail = String(error);
  return { code, detail: detail ?? (error?.message || 'fetch failed') };
}
