// settings.js: the model the demo talks to. The offline simulator by
// default; a provider's endpoint from the settings dialog (OpenAI-compatible,
// Responses, Anthropic, Gemini), whose key stays in this tab (memory, or
// sessionStorage only when asked).

import { $ } from './render.js';

const LLM = 'edgegraph-demo:llm'; // sessionStorage, only when asked

let settings = JSON.parse(sessionStorage.getItem(LLM) ?? 'null'); // { provider, baseURL, model, apiKey } or null: offline

/** The endpoint settings, or null for the offline simulator. */
export const currentSettings = () => settings;

/** Wire the dialog; `onChange` runs after the settings changed (rebuild the engine). */
export function wireSettings(onChange) {
  $('settings-open').addEventListener('click', () => {
    $('s-provider').value = settings?.provider ?? 'openai';
    $('s-base').value = settings?.baseURL ?? '';
    $('s-model').value = settings?.model ?? '';
    $('s-key').value = settings?.apiKey ?? '';
    $('s-remember').checked = !!sessionStorage.getItem(LLM);
    $('settings').showModal();
  });
  $('settings').addEventListener('close', () => {
    const action = $('settings').returnValue;
    if (action === 'save') {
      settings = { provider: $('s-provider').value, baseURL: $('s-base').value.trim(), model: $('s-model').value.trim(), apiKey: $('s-key').value };
      if ($('s-remember').checked) sessionStorage.setItem(LLM, JSON.stringify(settings));
      else sessionStorage.removeItem(LLM);
    } else if (action === 'offline') {
      settings = null;
      sessionStorage.removeItem(LLM);
    } else return;
    $('s-key').value = '';
    $('model-badge').textContent = settings ? `${settings.model || 'gpt-4o-mini'} @ ${settings.baseURL ? new URL(settings.baseURL).host : settings.provider ?? 'openai'}` : 'offline simulator';
    onChange();
  });
  if (settings) $('model-badge').textContent = `${settings.model || 'gpt-4o-mini'} (from this tab)`;
}
