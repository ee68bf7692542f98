// messages.js: LangGraph's message reducer over edgegraph's plain messages,
// and LangChain message objects accepted by shape. State is JSON here, so a
// HumanMessage / AIMessage / ToolMessage (from @langchain/core, never imported)
// becomes { role, content, id?, name?, tool_calls?, tool_call_id? } (and the
// data fields of CARRIED it has): the OpenAI shape the rest of edgegraph
// speaks. That is what comes back.

import { EMPTY } from '../objects.js';   // copies that add keys spread it first (objects.js says why)

/** Remove every message before this one (LangGraph's REMOVE_ALL_MESSAGES). */
export const REMOVE_ALL_MESSAGES = '__remove_all__';

/** Whether `v` is an object (not null): a list too. */
export const isObject = (v) => v !== null && typeof v === 'object';

// (No prototype: a type such as 'constructor' or 'toString' names no role.)
const ROLE_OF_TYPE = { __proto__: null, human: 'user', user: 'user', ai: 'assistant', assistant: 'assistant', system: 'system', developer: 'system', tool: 'tool', function: 'tool', remove: 'remove', generic: 'user' };

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

// A LangChain message's data fields kept beside role and content (JSON: what a model and a tool
// give, which LangGraph gives back): when set, and an object not empty (an AIMessage's
// response_metadata and additional_kwargs are {} by default: no bytes in every checkpoint).
const CARRIED = ['usage_metadata', 'response_metadata', 'additional_kwargs', 'invalid_tool_calls', 'status', 'artifact'];

/**
 * A tool call in the OpenAI shape. LangChain's { id, name, args } is converted; so is one
 * with both (the docs' "edit the tool call": `tool_calls[0].args = ...` on a call read from
 * the state), whose args are the edit: its function.arguments follow them.
 */
export const plainCall = (c) => (c.function && c.args === undefined ? c
  : { id: c.id, type: 'function', function: { name: c.name ?? c.function?.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}) } });

/** One message as edgegraph's plain message; plain messages pass through. */
export function toPlainMessage(m) {
  if (typeof m === 'string') return { role: 'user', content: m };
  // LangChain's message-like pair, [type or role, content] (['user', 'hi']).
  if (Array.isArray(m)) return m.length === 2 && m[0] !== 'remove' && ROLE_OF_TYPE[m[0]] ? toPlainMessage({ type: m[0], content: m[1] }) : m;
  if (!isObject(m)) return m;
  let type = langchainType(m);
  // A plain message: as it is, unless in LangChain's role names ({ role: 'ai' }, which LangChain
  // reads as an AIMessage), or with an edited call (plainCall). Only an assistant's calls are
  // looked at: a few, in an update, never the state's whole list.
  if (type === undefined && typeof m.role === 'string') {
    if (m.role === 'ai' || m.role === 'human') return fromFields(m, ROLE_OF_TYPE[m.role]);
    return m.role === 'assistant' && m.tool_calls?.some?.((c) => c.function && c.args !== undefined) ? { ...EMPTY, ...m, tool_calls: m.tool_calls.map(plainCall) } : m;
  }
  // A LangChain message, or LangChain's own plain form { type: 'human', content }.
  type ??= m.type !== 'remove' && typeof m.type === 'string' && ROLE_OF_TYPE[m.type] ? m.type : undefined;
  if (type === undefined) return m;
  const role = ROLE_OF_TYPE[type] ?? 'user';
  return role === 'remove' ? { type: 'remove', id: (m.lc === 1 ? m.kwargs ?? {} : m).id } : fromFields(m.lc === 1 ? m.kwargs ?? {} : m, role);
}

/** A LangChain message's fields (or a dict in its role names) as a plain message of `role`. */
function fromFields(fields, role) {
  const out = { role, content: fields.content ?? '' };
  if (fields.id != null) out.id = fields.id;
  if (fields.name) out.name = fields.name;
  if (role === 'assistant' && Array.isArray(fields.tool_calls) && fields.tool_calls.length) out.tool_calls = fields.tool_calls.map(plainCall);
  if (role === 'tool' && fields.tool_call_id) out.tool_call_id = fields.tool_call_id;
  for (const key of CARRIED) {
    const v = fields[key];
    if (v != null && !(isObject(v) && Object.keys(v).length === 0)) out[key] = v;
  }
  return out;
}

/** Whether a value is a message (plain or LangChain-shaped). */
export function isMessageLike(v) {
  return isObject(v) && !Array.isArray(v) && (langchainType(v) !== undefined || typeof v.role === 'string' || v instanceof RemoveMessage);
}

/**
 * A value with any messages in it made plain (top level or one list deep); with `ids`, each without
 * an id given one (a node's write to a messages channel: its chunks and the state have the same ids).
 */
export function plainMessages(v, ids) {
  const plain = ids ? withId : toPlainMessage;
  if (Array.isArray(v)) return v.some(isMessageLike) ? v.map(plain) : v;
  return isMessageLike(v) ? plain(v) : v;
}

// This process's ids: a counter, then a suffix drawn on first use (the time, and the digits
// of a Math.random(): its 52 random bits; not at import: workerd refuses randomness in a module's global scope). The counter
// comes first: the core's messages reducer finds an id by comparing it with every message's,
// and with a shared 22-character prefix each comparison read all of it.
let idSuffix = '';
let idCounter = 0;
/** A fresh message id (LangGraph assigns one to a message without). */
function newMessageId() {
  idSuffix ||= `-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `msg-${(++idCounter).toString(36)}${idSuffix}`;
}

/** A message update as a list: a single message is accepted where a list is expected. */
export const asList = (v) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

function withId(m) {
  const p = toPlainMessage(m);
  return isObject(p) && p.id == null ? { ...EMPTY, ...p, id: newMessageId() } : p;
}

/** A message list (or one message) made plain, every message with an id (a channel's default, a reducer's sides). */
export const plainMessageList = (value) => asList(value).map(withId);

/** A removal (a RemoveMessage made plain). */
export const isRemoval = (m) => isObject(m) && m.type === 'remove';

/** Marks a removal that takes effect where it stands (messages-channel.js's bothWrites), not after the update's writes. */
export const IN_ORDER = Symbol('edgegraph.messages.inOrder');

/**
 * An update of a messages list (`incoming`: plain, with ids) as writes and
 * removals to apply in order, by LangGraph's rules: REMOVE_ALL_MESSAGES
 * becomes removals of every message `before` it; a message keeps its place
 * (a write of its id replaces it) and is removed only if the last word on its
 * id is a removal; removing an id that is not there is an error, `fail(text)`.
 * `before`: the messages the update applies to (undefined: unknown, then a
 * removal's id is not checked).
 */
export function messagesDelta(incoming, before, fail) {
  if (!incoming.some(isRemoval)) return incoming;
  const known = before === undefined ? null : new Set(asList(before).map((m) => m?.id));
  const out = [];
  const all = incoming.findLastIndex((m) => isRemoval(m) && m.id === REMOVE_ALL_MESSAGES);
  if (all >= 0) {
    if (before === undefined) throw fail('Command.PARENT cannot use REMOVE_ALL_MESSAGES: remove by id');
    for (const id of known) out.push({ type: 'remove', id });
    known.clear();
    incoming = incoming.slice(all + 1);
  }
  const removed = new Set();
  for (const m of incoming) {
    if (isRemoval(m)) {
      if (known && !known.has(m.id)) throw fail(`Attempting to delete a message with an ID that doesn't exist ('${m.id}')`);
      if (m[IN_ORDER]) { out.push({ type: 'remove', id: m.id }); known?.delete(m.id); removed.delete(m.id); } else removed.add(m.id);
    } else {
      out.push(m);
      known?.add(m.id);
      removed.delete(m.id);
    }
  }
  for (const id of removed) out.push({ type: 'remove', id });
  return out;
}

/**
 * LangGraph's message reducer: appends; a message whose id is already there
 * replaces it; a removal deletes by id (an unknown id is an error);
 * REMOVE_ALL_MESSAGES drops everything before it; messages without an id get
 * one. A single message is accepted where a list is expected. (A channel with
 * it runs on the core's `messages` reducer: messages-channel.js; this is the
 * same delta applied here.)
 */
export function messagesStateReducer(left, right) {
  const merged = plainMessageList(left);
  const at = new Map(merged.map((m, i) => [m.id, i]));
  const removedBelow = new Map();   // a removed id -> the list's length then: its messages before that are gone
  for (const m of messagesDelta(plainMessageList(right), merged, (text) => new Error(text))) {
    if (isRemoval(m)) {
      removedBelow.set(m.id, merged.length);
      at.delete(m.id);
    } else if (at.has(m.id)) {
      merged[at.get(m.id)] = m;
    } else {
      at.set(m.id, merged.length);
      merged.push(m);
    }
  }
  return merged.filter((m, i) => !(i < removedBelow.get(m.id)));
}

/** LangGraph's other name for it. */
export const addMessages = messagesStateReducer;
