// history.js: ChatHistoryManager (the seed's IChatHistoryManager) over the
// C core. Token counts are computed once per message and cached; trimming
// walks back from the newest message only as far as the budget reaches.
// With an exact encoding (tokenizer.js) counts come from it; otherwise the
// core's documented estimate is used.

import { getCore } from './loader.js';
import { EdgegraphError } from './errors.js';
import { messageTokens } from './message-tokens.js';
import { leakGuard } from './leaks.js';

const histories = leakGuard('ChatHistoryManager', ({ core, handle }) => core.historyFree(handle));

export class ChatHistoryManager {
  #core;
  #handle;
  #encoding;
  #onWarning;

  /**
   * @param {{ maxContextTokens?: number, tokenizer?: { countText(text: string): number }, onWarning?: (w: object) => void }} [config]
   */
  constructor(config = {}) {
    this.#core = getCore();
    this.maxContextTokens = config.maxContextTokens ?? 8192;
    this.#encoding = config.tokenizer ?? null;
    this.#onWarning = config.onWarning ?? null;
    /** What the last getTrimmedHistory() did: { tokens, dropped, overBudget }. */
    this.lastTrim = null;
    this.#handle = this.#core.historyNew(JSON.stringify({ maxContextTokens: this.maxContextTokens }));
    histories?.register(this, { core: this.#core, handle: this.#handle }, this);
  }

  /** The system prompt: always first, never trimmed; replaced in place. '' removes it. */
  addSystemPrompt(prompt) {
    if (typeof prompt !== 'string') throw new EdgegraphError('INVALID_MESSAGE', 'the system prompt must be a string');
    this.#core.historySetSystem(this.#handle, prompt, this.#count({ role: 'system', content: prompt }));
  }

  /** Append a message (role user, assistant or tool); returns its id (assigned when missing). */
  addMessage(message) {
    const json = encode(message);
    return this.#core.historyAdd(this.#handle, json, this.#count(message));
  }

  /** The system prompt, the last user message and the newest messages that fit. */
  getTrimmedHistory() {
    const { messages, tokens, dropped, overBudget } = JSON.parse(this.#core.historyTrim(this.#handle));
    this.lastTrim = { tokens, dropped, overBudget };
    if (overBudget) this.#onWarning?.({ type: 'over_budget', tokens, maxContextTokens: this.maxContextTokens });
    return messages;
  }

  /** maxContextTokens minus what the trimmed history uses (0 when over). */
  getRemainingBudget() { return this.#core.historyRemaining(this.#handle); }

  /** Remove every message but the system prompt. */
  clearHistory() { this.#core.historyClear(this.#handle); }

  /** Replace a message's content (a string or content parts); it is recounted. */
  editMessage(messageId, newContent) {
    const current = this.getMessageById(messageId);
    const tokens = current ? this.#count({ ...current, content: newContent }) : -1;
    this.#core.historyEdit(this.#handle, String(messageId), encode(newContent), tokens);
  }

  /** Remove the messages from startId to endId, both included. */
  deleteMessageRange(startId, endId) { this.#core.historyDeleteRange(this.#handle, String(startId), String(endId)); }

  /** The message with this id, or undefined. A copy. */
  getMessageById(messageId) {
    const json = this.#core.historyGet(this.#handle, String(messageId));
    return json === undefined ? undefined : JSON.parse(json);
  }

  /** Every message, the system prompt first, untrimmed. Copies. */
  exportHistory() { return JSON.parse(this.#core.historyExport(this.#handle)); }

  /** Replace the history; a system message becomes the system prompt. All or nothing. */
  importHistory(messages) {
    if (!Array.isArray(messages)) throw new EdgegraphError('INVALID_MESSAGE', 'importHistory takes a list of messages');
    const counts = this.#encoding ? JSON.stringify(messages.map((m) => this.#count(m))) : '';
    this.#core.historyImport(this.#handle, encode(messages), counts);
  }

  /** Free the history in the core. */
  dispose() {
    if (this.#handle) { histories?.unregister(this); this.#core.historyFree(this.#handle); }
    this.#handle = 0;
  }

  [Symbol.dispose]() { this.dispose(); }

  #count(message) {
    return this.#encoding ? messageTokens(message, (t) => this.#encoding.countText(t)) : -1;
  }
}

function encode(value) {
  const json = JSON.stringify(value);
  if (json === undefined) throw new EdgegraphError('INVALID_MESSAGE', 'a message must be a JSON value');
  return json;
}
