// messages.js: LangGraph's message reducer over edgegraph's plain messages,
// and LangChain message objects accepted by shape. State is JSON here, so a
// HumanMessage / AIMessage / ToolMessage (from @langchain/core, never imported)
// becomes { role, content, id?, name?, tool_calls?, tool_call_id? }: the
// OpenAI shape the rest of edgegraph speaks. That is what comes back.

/** Remove every message before this one (LangGraph's REMOVE_ALL_MESSAGES). */
export const REMOVE_ALL_MESSAGES = '__remove_all__';

const ROLE_OF_TYPE = { human: 'user', user: 'user', ai: 'assistant', assistant: 'assistant', system: 'system', developer: 'system', tool: 'tool', function: 'tool', remove: 'remove', generic: 'user' };

/** A removal of the message with this id (LangGraph's RemoveMessage). */
export class RemoveMessage {
  constructor({ id }) { this.type = 'remove'; this.id = id; }
  toJSON() { return { ...this }; }
}

/** The LangChain message type of a value that looks like one, else undefined. */
function langchainType(m) {
  if (typeof m._getType === 'function') return m._getType();
  if (typeof m.getType === 'function') return m.getType();
  // A serialized LangChain message: { lc: 1, type: 'constructor', id: [..., 'HumanMessage'], kwargs }.
  if (m.lc === 1 && m.type === 'constructor' && Array.isArray(m.id)) return String(m.id.at(-1)).replace(/Message(Chunk)?$/, '').toLowerCase();
  return undefined;
}

function toolCalls(calls) {
  return calls.map((c) => (c.function ? c : { id: c.id, type: 'function', function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}) } }));
}

/** One message as edgegraph's plain message; plain messages pass through. */
export function toPlainMessage(m) {
  if (typeof m === 'string') return { role: 'user', content: m };
  if (m === null || typeof m !== 'object') return m;
  // A LangChain message, or LangChain's own plain form { type: 'human', content } (a plain message has a role).
  const type = langchainType(m) ?? (typeof m.role !== 'string' && m.type !== 'remove' && typeof m.type === 'string' && ROLE_OF_TYPE[m.type] ? m.type : undefined);
  if (type === undefined) return m;
  const fields = m.lc === 1 ? m.kwargs ?? {} : m;
  const role = ROLE_OF_TYPE[type] ?? 'user';
  if (role === 'remove') return { type: 'remove', id: fields.id };
  const out = { role, content: fields.content ?? '' };
  if (fields.id !== undefined && fields.id !== null) out.id = fields.id;
  if (fields.name) out.name = fields.name;
  if (role === 'assistant' && Array.isArray(fields.tool_calls) && fields.tool_calls.length) out.tool_calls = toolCalls(fields.tool_calls);
  if (role === 'tool' && fields.tool_call_id) out.tool_call_id = fields.tool_call_id;
  return out;
}

/** Whether a value is a message (plain or LangChain-shaped). */
export function isMessageLike(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && (langchainType(v) !== undefined || typeof v.role === 'string' || v instanceof RemoveMessage);
}

/** A value with any messages in it made plain (top level or one list deep). */
export function plainMessages(v) {
  if (Array.isArray(v)) return v.some(isMessageLike) ? v.map(toPlainMessage) : v;
  return isMessageLike(v) ? toPlainMessage(v) : v;
}

// This process's ids: a prefix drawn on first use (the time and 52 random
// bits; not at import: workerd refuses randomness in a module's global scope), then a counter.
let idPrefix = '';
let idCounter = 0;
/** A fresh message id (LangGraph assigns one to a message without). */
function newMessageId() {
  idPrefix ||= `msg-${Date.now().toString(36)}-${Math.floor(Math.random() * 2 ** 52).toString(36)}-`;
  return idPrefix + (++idCounter).toString(36);
}

/** A message update as a list: a single message is accepted where a list is expected. */
export const asList = (v) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

function withId(m) {
  const p = toPlainMessage(m);
  return p !== null && typeof p === 'object' && (p.id === undefined || p.id === null) ? { ...p, id: newMessageId() } : p;
}

/** A message list (or one message) made plain, every message with an id (a channel's default, a reducer's sides). */
export const plainMessageList = (value) => asList(value).map(withId);

/**
 * LangGraph's message reducer: appends; a message whose id is already there
 * replaces it; a removal deletes by id (an unknown id is an error);
 * REMOVE_ALL_MESSAGES drops everything before it; messages without an id get
 * one. A single message is accepted where a list is expected.
 */
export function messagesStateReducer(left, right) {
  let current = plainMessageList(left);
  let incoming = plainMessageList(right);
  const all = incoming.findLastIndex((m) => m.type === 'remove' && m.id === REMOVE_ALL_MESSAGES);
  if (all >= 0) { current = []; incoming = incoming.slice(all + 1); }
  const merged = current.slice();
  const at = new Map(merged.map((m, i) => [m.id, i]));
  const removed = new Set();
  for (const m of incoming) {
    const i = at.get(m.id);
    if (m.type === 'remove') {
      if (i === undefined) throw new Error(`Attempting to delete a message with an ID that doesn't exist ('${m.id}')`);
      removed.add(m.id);
    } else if (i !== undefined) {
      merged[i] = m;
      removed.delete(m.id);
    } else {
      at.set(m.id, merged.length);
      merged.push(m);
    }
  }
  return merged.filter((m) => !removed.has(m.id));
}

/** LangGraph's other name for it. */
export const addMessages = messagesStateReducer;
