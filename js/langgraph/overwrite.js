// overwrite.js: LangGraph's Overwrite: a write that replaces a channel's value
// instead of going through its reducer (`{ items: new Overwrite([]) }` empties a
// list a reducer appends to). It is data ({ __overwrite__: value }), as any
// write: a JS reducer's channel takes it through overwritable(), the core's
// messages channel as "remove all, then these" (graph-runner.js's #toUpdate).

const OVERWRITE = '__overwrite__';

export class Overwrite {
  constructor(value) { this.lg_name = 'Overwrite'; this[OVERWRITE] = value; }
  get value() { return this[OVERWRITE]; }
  toJSON() { return { [OVERWRITE]: this[OVERWRITE] }; }
}

/** Whether a write is an Overwrite (this entry's, LangGraph's, or its JSON form); its value is overwritten(). (A test, no object made: every key of every node's update is asked.) */
export const isOverwrite = (v) => v !== null && typeof v === 'object' && Object.hasOwn(v, OVERWRITE);
export const overwritten = (v) => v[OVERWRITE];

/** `reducer` taking an Overwrite as the channel's new value. */
export const overwritable = (reducer) => (a, b) => (isOverwrite(b) ? overwritten(b) : reducer(a, b));
