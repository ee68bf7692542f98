// llm-config.js: which model the examples talk to. By default a scripted
// offline simulator (no key, no network); set OPENAI_BASE_URL (and
// OPENAI_API_KEY, EDGEGRAPH_MODEL) to use any OpenAI-compatible server.

import { createScriptedFetch } from 'edgegraph/testing';

export function llmConfig(offlineRespond) {
  const env = globalThis.process?.env ?? {};
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
