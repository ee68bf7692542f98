// The graph both bundled apps run: a fan-out, an approval pause, a resume.
// (Copied into each app at test time, so each imports only its own edgegraph.)

export function run(eg) {
  const outbox = [];
  const engine = new eg.GraphEngine({
    nodes: {
      draft: () => ({ data: { to: ['ann', 'bob'] } }),
      write: (state, engine, ctx) => ({ letters: [`dear ${ctx.arg}`] }),
      approve: eg.createAskUserNode({ question: 'Send them?', answerKey: 'ok' }),
      send: (state) => { if (state.data.ok === 'yes') outbox.push(...state.letters); return { data: { sent: outbox.length } }; },
    },
    edges: { draft: { map: 'data.to', to: 'write' }, write: 'approve', approve: 'send', send: '__end__' },
    entryPoint: 'draft',
    state: { shape: 'frame', reducers: { letters: 'concat' }, defaults: { letters: [] } },
  }, { checkpointer: eg.browserStore('bundled-app') });
  return { engine, outbox };
}
