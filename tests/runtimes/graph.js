// The graph every runtime runs: a fan-out over a list, reducers, a pause for
// a human answer, and an agent that calls a tool through an OpenAI-compatible
// server (the strict test server: streamed tool-call deltas over the
// runtime's own fetch). `eg` is the edgegraph module as that runtime loads it.

export function makeEngine(eg, baseURL = 'http://127.0.0.1:9/v1') {
  const post = { name: 'publish_post', description: 'Publish the results', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, run: ({ text }) => `published: ${text}` };
  return new eg.GraphEngine({
    nodes: {
      plan: () => ({ data: { items: ['a', 'b', 'c'] } }),
      work: (state, engine, ctx) => ({ results: [`${ctx.arg}:${ctx.arg.charCodeAt(0)}`], count: 1 }),
      check: async (state, engine, ctx) => {
        const mode = eg.interrupt({ ask: 'mode?' });          // synchronous: found in every runtime
        await Promise.resolve();
        return { data: { mode, go: ctx.interrupt({ ask: 'go?' }) } };   // after an await: the context's
      },
      ask: eg.createAskUserNode({ question: 'Publish?', answerKey: 'answer' }),
      publish: (state) => ({ data: { published: state.data.answer === 'yes' }, logs: [`published ${state.results.join(',')} (${state.data.mode}, ${state.data.go})`] }),
      announce: eg.createAgentNode({ llm: { baseURL, model: 'gpt-4o-mini', maxRetries: 0 }, tools: [post], agentInfo: { name: 'Announcer' } }),
    },
    edges: { plan: { map: 'data.items', to: 'work' }, work: 'check', check: 'ask', ask: 'publish', publish: 'announce', announce: '__end__' },
    entryPoint: 'plan',
    state: { shape: 'frame', reducers: { results: 'concat', count: 'sum' }, defaults: { results: [], count: 0 } },
  });
}

/** What the model does: asked to go ahead, it calls publish_post; given the result, it says so. */
export function model({ messages }) {
  const last = messages.at(-1);
  if (last.role === 'user') return { toolCalls: [{ id: 'call_post', name: 'publish_post', arguments: { text: 'a, b and c' } }] };
  return `Done: ${last.content}`;
}

/** Run until the first pause (check's first interrupt); the checkpoint as JSON text. */
export async function pause(eg) {
  const engine = makeEngine(eg);
  try {
    const r = await engine.execute({ messages: [] });
    if (r.status !== 'PAUSED') throw new Error(`expected PAUSED, got ${r.status}`);
    return r.checkpoint;
  } finally {
    engine.dispose();
  }
}

/** Resume a checkpoint with the answer, the agent's model at `baseURL`; a summary to compare across runtimes. */
export async function resume(eg, checkpoint, baseURL) {
  const engine = makeEngine(eg, baseURL);
  let r;
  try {
    const first = await engine.resume(checkpoint, 'loud');                 // check's interrupts, in call order
    const second = await engine.resume(first.checkpoint, 'go');
    r = await engine.resume(second.checkpoint, { role: 'user', content: 'yes' });
  } finally {
    engine.dispose();
  }
  return { status: r.status, error: r.error?.message ?? null, results: r.state.results, count: r.state.count, published: r.state.data.published, logs: r.state.logs, stepCount: r.state.stepCount,
    tools: (r.state.toolCalls ?? []).map((t) => `${t.name}:${t.status}`), output: r.state.lastModelOutput };
}

export const expected = { status: 'FINISHED', error: null, results: ['a:97', 'b:98', 'c:99'], count: 3, published: true, logs: ['published a:97,b:98,c:99 (loud, go)'], stepCount: 10,
  tools: ['publish_post:ok'], output: 'Done: published: a, b and c' };
