// The graph of the crash tests: start -> a -> [p1, p2, p3] -> join. Every
// node logs "<node> <taskId>" when it completes (an external side effect).

export function definition(log, mode) {
  let finished = 0;
  let bothDone;
  const twoDone = new Promise((r) => { bothDone = r; });
  const branch = (name, value) => async (state, engine, ctx) => {
    if (name === 'p3' && mode === 'mid-parallel') {
      await twoDone;                                           // p1 and p2 are done and checkpointed
      await new Promise((r) => setTimeout(r, 50));             // let their checkpoint writes land
      process.kill(process.pid, 'SIGKILL');                    // die mid-step, p3 unfinished
    }
    log(`${name} ${ctx.taskId}`);
    if (++finished === 2) bothDone();
    return { results: [value], total: value };
  };
  return {
    nodes: {
      start: (s, e, ctx) => { log(`start ${ctx.taskId}`); return { data: { started: true } }; },
      a: (s, e, ctx) => { log(`a ${ctx.taskId}`); return { data: { a: s.data.input * 2 } }; },
      p1: branch('p1', 1),
      p2: branch('p2', 2),
      p3: branch('p3', 4),
      join: (s, e, ctx) => { log(`join ${ctx.taskId}`); return { data: { sum: s.total, list: s.results.join(',') } }; },
    },
    edges: { start: 'a', a: ['p1', 'p2', 'p3'], p1: 'join', p2: 'join', p3: 'join', join: '__end__' },
    entryPoint: 'start',
    state: { shape: 'frame', reducers: { results: 'concat', total: 'sum' }, defaults: { results: [], total: 0 } },
  };
}
