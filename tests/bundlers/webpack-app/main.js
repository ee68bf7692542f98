// A webpack 5 app importing the package's main entry, with no webpack
// configuration for it: webpack turns `new URL('../wasm/edgegraph.wasm',
// import.meta.url)` inside edgegraph into an emitted asset, and supports the
// entry's top-level await.
import * as eg from 'edgegraph';
import { run } from './shared-graph.js';

async function start() {
  const out = document.getElementById('out');
  const { engine } = run(eg);
  const paused = await engine.execute({ messages: [] }, { threadId: 'webpack' });
  out.textContent = `${paused.status} ${paused.state.pendingAskUser.question}`;
  const button = document.getElementById('approve');
  button.disabled = false;
  button.onclick = async () => {
    const done = await engine.resume({ threadId: 'webpack' }, { role: 'user', content: 'yes' });
    out.textContent = `${done.status} sent=${done.state.data.sent} letters=${done.state.letters.join('|')}`;
  };
}
start();
