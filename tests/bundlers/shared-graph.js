// The graph every bundled app runs (a fan-out, an approval pause, a resume)
// and the page that drives it; each app only differs in how it loads the
// .wasm. (Copied into each app at test time, so each imports only its own
// edgegraph.)

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

// Runs to the approval pause, shows it in #out, and resumes when #approve is clicked.
export async function mount(eg, threadId) {
  const out = document.getElementById('out');
  const { engine } = run(eg);
  const paused = await engine.execute({ messages: [] }, { threadId });
  out.textContent = `${paused.status} ${paused.state.pendingAskUser.question}`;
  const button = document.getElementById('approve');
  button.disabled = false;
  button.onclick = async () => {
    const done = await engine.resume({ threadId }, { role: 'user', content: 'yes' });
    out.textContent = `${done.status} sent=${done.state.data.sent} letters=${done.state.letters.join('|')}`;
  };
}
