// The graph every runtime runs: a fan-out over a list, reducers, and a pause
// for a human answer. `eg` is the edgegraph module as that runtime loads it.

export function makeEngine(eg) {
  return new eg.GraphEngine({
    nodes: {
      plan: () => ({ data: { items: ['a', 'b', 'c'] } }),
      work: (state, engine, ctx) => ({ results: [`${ctx.arg}:${ctx.arg.charCodeAt(0)}`], count: 1 }),
      ask: eg.createAskUserNode({ question: 'Publish?', answerKey: 'answer' }),
      publish: (state) => ({ data: { published: state.data.answer === 'yes' }, logs: [`published ${state.results.join(',')}`] }),
    },
    edges: { plan: { map: 'data.items', to: 'work' }, work: 'ask', ask: 'publish', publish: '__end__' },
    entryPoint: 'plan',
    state: { shape: 'frame', reducers: { results: 'concat', count: 'sum' }, defaults: { results: [], count: 0 } },
  });
}

/** Run until the pause; the checkpoint as JSON text. */
export async function pause(eg) {
  const r = await makeEngine(eg).execute({ messages: [] });
  if (r.status !== 'PAUSED') throw new Error(`expected PAUSED, got ${r.status}`);
  return r.checkpoint;
}

/** Resume a checkpoint with the answer; a summary to compare across runtimes. */
export async function resume(eg, checkpoint) {
  const r = await makeEngine(eg).resume(checkpoint, { role: 'user', content: 'yes' });
  return { status: r.status, results: r.state.results, count: r.state.count, published: r.state.data.published, logs: r.state.logs, stepCount: r.state.stepCount };
}

export const expected = { status: 'FINISHED', results: ['a:97', 'b:98', 'c:99'], count: 3, published: true, logs: ['published a:97,b:98,c:99'], stepCount: 7 };
