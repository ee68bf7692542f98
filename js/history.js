// history.js: ChatHistoryManager (the seed's IChatHistoryManager) over the
// C core. Token counts are computed once per message and cached; trimming
// walks back from the newest message only as far as the budget reaches.
// With an exact encoding (tokenizer.js) counts come from it; otherwise the
// core's documented estimate is used.

import { getCore } from './loader.js';
import { EdgegraphError } from './errors.js';
import { messageTokens } from './message-tokens.js';
import { CoreObject } from './handle.js';

export class ChatHistoryManager extends CoreObject {
  #core;
  #handle;
  #encoding;
  #onWarning;

  /**
   * @param {{ maxContextTokens?: number, tokenizer?: { countText(text: string): number }, onWarning?: (w: object) => void }} [config]
   */
  constructor(config = {}) {
    const core = getCore();
    const maxContextTokens = config.maxContextTokens ?? 8192;
    const handle = core.historyNew(JSON.stringify({ maxContextTokens }));
    super('ChatHistoryManager', () => core.historyFree(handle));
    this.#core = core;
    this.#handle = handle;
    this.maxContextTokens = maxContextTokens;
    this.#encoding = config.tokenizer ?? null;
    this.#onWarning = config.onWarning ?? null;
    /** What the last getTrimmedHistory() did: { tokens, dropped, overBudget }. */
    this.lastTrim = null;
  }

  /** The core handle; DISPOSED after dispose(). */
  get #h() {
    this.assertAlive();
    return this.#handle;
  }

  /** The system prompt: always first, never trimmed; replaced in place. '' removes it. */
  addSystemPrompt(prompt) {
    this.assertAlive();
    if (typeof prompt !== 'string') throw new EdgegraphError('INVALID_MESSAGE', 'the system prompt must be a string');
    this.#core.historySetSystem(this.#h, prompt, this.#count({ role: 'system', content: prompt }));
  }

  /** Append a message (role user, assistant or tool); returns its id (assigned when missing). */
  addMessage(message) {
    const json = encode(message);
    return this.#core.historyAdd(this.#h, json, this.#count(message));
  }

  /** The system prompt, the last user message and the newest messages that fit. */
  getTrimmedHistory() {
    const { messages, tokens, dropped, overBudget } = JSON.parse(this.#core.historyTrim(this.#h));
    this.lastTrim = { tokens, dropped, overBudget };
    if (overBudget) this.#onWarning?.({ type: 'over_budget', tokens, maxContextTokens: this.maxContextTokens });
    return messages;
  }

  /** maxContextTokens minus what the trimmed history uses (0 when over). */
  getRemainingBudget() { return this.#core.historyRemaining(this.#h); }

  /** Remove every message but the system prompt. */
  clearHistory() { this.#core.historyClear(this.#h); }

  /** Replace a message's content (a string or content parts); it is recounted. */
  editMessage(messageId, newContent) {
    const current = this.getMessageById(messageId);
    const tokens = current ? this.#count({ ...current, content: newContent }) : -1;
    this.#core.historyEdit(this.#h, String(messageId), encode(newContent), tokens);
  }

  /** Remove the messages from startId to endId, both included. */
  deleteMessageRange(startId, endId) { this.#core.historyDeleteRange(this.#h, String(startId), String(endId)); }

  /** The message with this id, or undefined. A copy. */
  getMessageById(messageId) {
    const json = this.#core.historyGet(this.#h, String(messageId));
    return json === undefined ? undefined : JSON.parse(json);
  }

  /** Every message, the system prompt first, untrimmed. Copies. */
  exportHistory() { return JSON.parse(this.#core.historyExport(this.#h)); }

  /** Replace the history; a system message becomes the system prompt. All or nothing. */
  importHistory(messages) {
    this.assertAlive();
    if (!Array.isArray(messages)) throw new EdgegraphError('INVALID_MESSAGE', 'importHistory takes a list of messages');
    const counts = this.#encoding ? JSON.stringify(messages.map((m) => this.#count(m))) : '';
    this.#core.historyImport(this.#h, encode(messages), counts);
  }

  #count(message) {
    return this.#encoding ? messageTokens(message, (t) => this.#encoding.countText(t)) : -1;
  }
}

function encode(value) {
  const json = JSON.stringify(value);
  if (json === undefined) throw new EdgegraphError('INVALID_MESSAGE', 'a message must be a JSON value');
  return json;
}
