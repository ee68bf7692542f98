// history-view.js: the engine's chat history (the seed's addMessage /
// getMessagesForLLM): a ChatHistoryManager kept in step with a run's
// state.messages incrementally. Appends are fed one by one; any other change
// to messages (a replace, a removal) makes the next call re-import them.

import { EdgegraphError } from './errors.js';
import { ChatHistoryManager } from './history.js';

export class HistoryView {
  #options;
  #current = null;
  #owned;
  #synced = { messages: null, length: 0, epoch: -1 };
  #epoch = 0;
  /** Messages added with add(), waiting for the next execute(). */
  pending = [];

  /**
   * @param {{ manager?: ChatHistoryManager, maxContextTokens?: number, tokenizer?: object }} options
   * @param {{ history: ChatHistoryManager | null }} owned where a manager of its own is recorded, for dispose()
   */
  constructor(options, owned) {
    this.#options = options;
    this.#owned = owned;
  }

  /** One kept for good, for its shape (objects.js's SHAPE). */
  static #shape = new HistoryView({}, {});

  /** Queue a message for the next run (validated now); a system message becomes the system prompt. */
  add(message) {
    if (message?.role === 'system') {
      if (typeof message.content !== 'string' || !message.content) throw new EdgegraphError('INVALID_MESSAGE', 'a system message needs text content');
    } else {
      this.#manager().addMessage(message);
    }
    this.pending.push(structuredClone(message));
    this.#synced.messages = null;
  }

  /** The queued messages, handed to a run once. */
  takePending() {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /** A step changed messages other than by an append (step.js tells): the next call re-syncs. */
  sawReshape() {
    this.#epoch++;
  }

  /** The trimmed history of `messages` (or of the queued messages when null). */
  trimmed(messages) {
    const history = this.#manager();
    const list = messages ?? this.pending;
    const s = this.#synced;
    if (s.messages === list && s.epoch === this.#epoch && list.length >= s.length) {
      for (let i = s.length; i < list.length; i++) history.addMessage(list[i]);
    } else {
      history.importHistory(list);
    }
    this.#synced = { messages: list, length: list.length, epoch: this.#epoch };
    return history.getTrimmedHistory();
  }

  #manager() {
    if (!this.#current) {
      const o = this.#options;
      this.#current = o.manager ?? (this.#owned.history = new ChatHistoryManager({ maxContextTokens: o.maxContextTokens ?? 8192, tokenizer: o.tokenizer }));
    }
    return this.#current;
  }
}
