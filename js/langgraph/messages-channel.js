// messages-channel.js: a channel whose reducer is LangGraph's message reducer
// runs on the core's own `messages` reducer (src/eg_reduce.c), so a step hands
// the core its update, not the whole folded list (a JS reducer's value is
// replaced whole each step: quadratic over a long ReAct loop). The core
// appends, replaces a message whose id is there in place, and deletes on
// { type: 'remove', id }; LangGraph's other rules apply to the incoming update
// only (messagesDelta in messages.js, which messagesStateReducer applies in JS
// too): messages made plain, missing ids assigned, a removal's id checked
// against the current messages, REMOVE_ALL_MESSAGES expanded into removals of
// the current messages, and removals put after the writes so that removing and
// re-adding an id in one update keeps its place, as in LangGraph.

import { EdgegraphError } from './edgegraph.js';
import { isObject, messagesDelta, toPlainMessage, plainMessageList, asList, isRemoval, IN_ORDER } from './messages.js';

/**
 * Two writes of one node to a messages channel (a Command's list of writes)
 * as one update. LangGraph applies them one by one: what the first write
 * removes is gone before the second, which re-adds an id at the end. So the
 * first write's removals that stand (no later message of the write has
 * their id) are marked to take effect in order.
 */
export function bothWrites(a, b) {
  const first = asList(a).map(toPlainMessage);
  const lastWord = new Map();
  first.forEach((m, i) => { if (isObject(m)) lastWord.set(m.id, i); });
  const settled = first.map((m, i) => (isRemoval(m) && lastWord.get(m.id) === i ? { ...m, [IN_ORDER]: true } : m));
  return [...settled, ...asList(b)];
}

/** Whether an update of a messages channel removes anything (then it needs the current messages). */
export const removesMessages = (value) => asList(value).some((m) => isRemoval(toPlainMessage(m)));

/**
 * An update of `node` as the core takes it: each messages channel's value
 * (`keys`) as the list to hand the core's `messages` reducer (messagesDelta).
 * `channels`: the channel values it applies to (undefined: unknown), which a
 * removal is checked against. Throws, as LangGraph does, on the removal of an
 * id that is not there: REDUCER_FAILED naming the channel `key` and the node,
 * as a JS reducer's throw is.
 */
export function coreUpdate(keys, update, node, channels) {
  let out = update;
  for (const key of keys) {
    if (update[key] === undefined) continue;
    if (out === update) out = { ...update };   // the caller's object stays as it is
    out[key] = messagesDelta(plainMessageList(update[key]), channels?.[key], (text) => new EdgegraphError('REDUCER_FAILED', `the reducer of '${key}' failed on the write of node '${node}': ${text}`, { node }));
  }
  return out;
}
