// records.js: how one checkpoint record is sealed into a store value, read
// back, and written exclusively. A record's checksum covers its thread and
// id as well as its text: a torn write, a record copied from another thread
// or another id, and garbage all fail the same check, and say which record.

import { EdgegraphError } from './errors.js';

/** The record format this version writes; a record from a newer one is CHECKPOINT_VERSION. */
export const RECORD_FORMAT = 1;

export const pad = (n) => String(n).padStart(10, '0');
export const recordKey = (threadId, id) => `${threadId}/r/${pad(id)}`;

/** FNV-1a over the text: enough to notice a torn, truncated or misplaced write. */
function sum(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export function seal(threadId, id, record) {
  const body = JSON.stringify(record);
  return `${sum(`${threadId}/${id}\n${body}`)}${body}`;
}

/**
 * The record stored as `text` under thread/id: { record } when it reads,
 * { missing: true } when there is none, { error } (an EdgegraphError naming
 * the thread and record) when the store gave something else.
 */
export function unseal(threadId, id, text) {
  if (text === undefined || text === null) return { missing: true };
  const bad = (why, code = 'INVALID_CHECKPOINT') => ({ error: new EdgegraphError(code, `record ${id} of thread '${threadId}' ${why}`) });
  if (typeof text !== 'string') return bad(`is not text (the store returned ${typeof text})`);
  const body = text.slice(8);
  if (text.length < 9 || sum(`${threadId}/${id}\n${body}`) !== text.slice(0, 8)) return bad('does not match its checksum: it is torn, damaged, or a record of another thread or id');
  let record;
  try { record = JSON.parse(body); } catch { return bad('is not JSON'); }
  if ((record?.v ?? 1) > RECORD_FORMAT) return bad(`was written in record format ${record.v}, newer than this edgegraph reads (${RECORD_FORMAT}): upgrade edgegraph to read it`, 'CHECKPOINT_VERSION');
  const fields = record !== null && typeof record === 'object' && (record.p === null || Number.isInteger(record.p)) && record.m !== null && typeof record.m === 'object';
  if (!fields) return bad('is not a record (no parent id or checkpoint fields)');
  record.id = id;
  return { record };
}

const warned = new WeakSet();

/** Whether create() is exclusive for this store; warns once per store when it is not. */
function exclusive(store) {
  if (typeof store.create === 'function' && store.exclusive !== false) return true;
  if (!warned.has(store)) {
    warned.add(store);
    console.warn('edgegraph: this checkpoint store has no exclusive create(key, value) (Workers KV, or a store without create): two resumes of one thread at once may both run. See docs/checkpoints.md.');
  }
  return false;
}

/** Write `value` under `key` only if the key is absent; true when this call wrote it. */
export async function createOnce(store, key, value) {
  exclusive(store);
  if (typeof store.create === 'function') return Boolean(await store.create(key, value));
  const seen = await store.get(key);
  if (seen !== undefined && seen !== null) return false;
  await store.put(key, value);
  return true;
}

export function threadBusy(threadId, detail) {
  return new EdgegraphError('THREAD_BUSY', `thread '${threadId}' is busy: ${detail}; nothing ran, and the thread is unchanged`);
}
