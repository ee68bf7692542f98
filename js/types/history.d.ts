// Types of edgegraph: the chat history (re-exported by js/index.d.ts).

import { Message } from './core.js';

/** Anything that counts the tokens of a text (an Encoding from edgegraph/tokenizer). */
export interface TextTokenCounter { countText(text: string): number }

export interface ChatHistoryConfig {
  /** The budget (default 8192). */
  maxContextTokens?: number;
  /** Exact counts; default: the documented estimate (README "Token counting"). */
  tokenizer?: TextTokenCounter;
  /** Called when the protected messages alone exceed the budget. */
  onWarning?: (warning: { type: 'over_budget'; tokens: number; maxContextTokens: number }) => void;
}

/** The seed's IChatHistoryManager: a chat history trimmed to a token budget. */
export class ChatHistoryManager {
  constructor(config?: ChatHistoryConfig);
  readonly maxContextTokens: number;
  /** What the last getTrimmedHistory() did. */
  lastTrim: { tokens: number; dropped: number; overBudget: boolean } | null;
  addSystemPrompt(prompt: string): void;
  /** Returns the message's id (assigned when missing). */
  addMessage(message: Message): string;
  getTrimmedHistory(): Message[];
  getRemainingBudget(): number;
  clearHistory(): void;
  editMessage(messageId: string, newContent: Message['content']): void;
  deleteMessageRange(startId: string, endId: string): void;
  getMessageById(messageId: string): Message | undefined;
  exportHistory(): Message[];
  importHistory(messages: Message[]): void;
  dispose(): void;
  [Symbol.dispose](): void;
}
