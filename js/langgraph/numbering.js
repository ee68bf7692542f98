// numbering.js: a thread's records as LangGraph numbers them (history.js's historyReader
// marks: each one's step, shown parent, skipped or hidden), kept beside the records, so that
// getState reads the few records it shows, not the whole thread, however long it grows.
// A record's marks follow from those before it, so each is worked out once, by the first
// read after it is written, and kept:
//   <thread>/lg      { n, t, b }: records up to id n are numbered; t, record n's createdAt
//                    (a thread deleted and written again is not the one numbered); b[k],
//                    the token of block k this head was written with
//   <thread>/lg/<k>  { w, r }: r, the marked records of ids 64k .. 64k+63; w, its token
// A read numbers the records written since (a run, a write through GraphEngine) from the
// marks they continue, and keeps them. The one mark set on an earlier record (a pause hides
// its step's start) can land in an earlier block, so two readers writing at once could leave
// blocks of two heads: a block whose token is not the head's is not trusted. A thread with no
// index (written before this), or one its records contradict, is read whole and indexed anew.
// The index is a cache: a write of it that fails costs the next read time, nothing else.

import { historyReader } from './history.js';

const SIZE = 64;
const blockOf = (id) => Math.floor(id / SIZE);
const keyOf = (threadId, k) => `${threadId}/lg${k === undefined ? '' : `/${k}`}`;

/**
 * The thread's records, oldest first, each marked by `read` (historyReader's); those not
 * skipped, newest first. With `store`, the thread's index is written from them.
 */
export async function threadHistory(engine, threadId, read = historyReader(engine), store) {
  const all = (await engine.getStateHistory(threadId)).reverse();
  for (const r of all) read(r);
  if (store && all.length) await keep(store, threadId, all, {}, []);
  return all.filter((r) => !r.skipped).reverse();
}

/**
 * Write the blocks of `records` (marked, with every record of each block they are in) whose
 * text is not that of `texts` (block -> its records' JSON, as read), then the head, with the
 * blocks' tokens `b` (the head's, as read).
 */
async function keep(store, threadId, records, texts, b) {
  const blocks = {};
  // (Oldest first: as read, or a block's as kept then those since.)
  for (const r of records) (blocks[blockOf(r.checkpointId)] ??= []).push(r);
  const last = records.at(-1);
  try {
    for (const k in blocks) {
      const text = JSON.stringify(blocks[k]);
      if (text !== texts[k]) await store.put(keyOf(threadId, k), `{"w":${(b[k] = last.checkpointId)},"r":${text}}`);
    }
    await store.put(keyOf(threadId), JSON.stringify({ n: last.checkpointId, t: last.createdAt, b }));
  } catch {}   // (a cache: see the top)
}

/**
 * The thread's records as historyReader marks them: { top, get }, `top` the highest
 * record id, `get(id)` a record (by id) with its marks, or undefined (none, or unreadable).
 * Reads the index (a block or two), and the records written since it was kept.
 */
export async function numbered(engine, store, checkpointer, threadId) {
  const top = await checkpointer.top(threadId);
  const head = JSON.parse((await store.get(keyOf(threadId))) ?? 0);
  let n = head?.n, byId = new Map();
  const texts = {};
  // Block k as kept, into `texts`; false when its token is not the head's (another reader's write crossed this one's).
  const load = async (k) => {
    const block = JSON.parse((await store.get(keyOf(threadId, k))) ?? 0);
    return block?.w === head.b[k] && (texts[k] = JSON.stringify(block.r));
  };
  // No index, or one that does not serve: the whole thread, read and indexed.
  const whole = async () => {
    n = 0;
    byId = new Map();
    await threadHistory(engine, threadId, historyReader(engine, byId), store);
  };
  // Record n as read now (is it the one numbered?), and those after it, oldest first.
  const fresh = n <= top ? (await engine.getStateHistory(threadId, { before: top + 1, limit: top - n + 1 })).reverse() : [];
  if (!head || fresh[0]?.createdAt !== head.t || fresh[0].checkpointId !== n || !(await load(blockOf(n)))) await whole();
  else {
    // The records since, numbered from the marks kept (each time from copies: numbering marks them). One whose
    // parent is in a block not read yet throws the block's number: it is read, and the numbering starts again.
    const since = JSON.stringify(fresh.slice(1));
    const lazy = { get: (id) => { if (id > 0 && id <= n && !(blockOf(id) in texts)) throw blockOf(id); return byId.get(id); }, set: (id, r) => byId.set(id, r) };
    for (;;) {
      byId.clear();
      for (const k in texts) for (const r of JSON.parse(texts[k])) byId.set(r.checkpointId, r);
      try {
        JSON.parse(since).forEach(historyReader(engine, lazy));
        break;
      } catch (k) {
        if (typeof k !== 'number') throw k;
        if (!(await load(k))) { await whole(); break; }
      }
    }
    if (fresh.length > 1 && n) await keep(store, threadId, [...byId.values()], texts, head.b);
  }
  return {
    top,
    async get(id) {
      const k = blockOf(id);
      if (id > 0 && id <= n && !(k in texts)) {
        if (await load(k)) for (const r of JSON.parse(texts[k])) byId.set(r.checkpointId, r);
        else await whole();
      }
      return byId.get(id);
    },
  };
}

/**
 * The record a thread shows now (the newest neither skipped nor hidden), or the one named by id
 * `wanted` (hidden ones too), with its marks; undefined: none. `runner`: graph-runner.js's (its engine,
 * its store and the Checkpointer over it, `records`).
 */
export async function shownRecord(runner, threadId, wanted) {
  const { top, get } = await numbered(runner.engine, runner.store, runner.records, threadId);
  let record;
  if (wanted !== undefined) record = await get(Number(wanted));
  else for (let id = top; id > 0 && !(record && !record.skipped && !record.hidden); id--) record = await get(id);
  return record?.skipped || (record?.hidden && wanted === undefined) ? undefined : record;
}
