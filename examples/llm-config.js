// llm-config.js: which model the examples talk to. By default a scripted
// offline simulator (no key, no network); set OPENAI_BASE_URL (and
// OPENAI_API_KEY, EDGEGRAPH_MODEL) to use any OpenAI-compatible server, or
// EDGEGRAPH_PROVIDER (anthropic, gemini, openai-responses; the key in
// ANTHROPIC_API_KEY, GEMINI_API_KEY or OPENAI_API_KEY; EDGEGRAPH_BASE_URL
// for another endpoint) for another API.

import { createScriptedFetch } from 'edgegraph/testing';

const PROVIDERS = { anthropic: ['ANTHROPIC_API_KEY', 'claude-haiku-4-5'], gemini: ['GEMINI_API_KEY', 'gemini-2.5-flash'], 'openai-responses': ['OPENAI_API_KEY', 'gpt-4o-mini'] };

export function llmConfig(offlineRespond) {
  const env = globalThis.process?.env ?? {};
  const chosen = PROVIDERS[env.EDGEGRAPH_PROVIDER];
  if (chosen) {
    const [keyName, model] = chosen;
    const llm = { provider: env.EDGEGRAPH_PROVIDER, baseURL: env.EDGEGRAPH_BASE_URL, apiKey: env[keyName], model: env.EDGEGRAPH_MODEL ?? model };
    return { label: `${llm.model} (${llm.provider}${llm.baseURL ? ` at ${llm.baseURL}` : ''})`, llm };
  }
  if (env.OPENAI_BASE_URL) {
    return { label: `${env.EDGEGRAPH_MODEL ?? 'gpt-4o-mini'} at ${env.OPENAI_BASE_URL}`, llm: { baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.EDGEGRAPH_MODEL ?? 'gpt-4o-mini' } };
  }
  return { label: 'offline simulator (scripted, deterministic, no network)', llm: { model: 'offline-simulator', fetch: createScriptedFetch(offlineRespond) } };
}

/** The first {...} in a model's reply, parsed; real models wrap JSON in prose. */
export function parseJson(text, fallback) {
  const m = /\{[\s\S]*\}/.exec(text ?? '');
  try { return m ? JSON.parse(m[0]) : fallback; } catch { return fallback; }
}
