// A Vite app using edgegraph exactly as the README shows.
import * as eg from 'edgegraph/core';
import { run } from './shared-graph.js';

import { init, GraphEngine } from 'edgegraph/core';
import wasmUrl from 'edgegraph/edgegraph.wasm?url';   // Vite's ?url: the file's URL after the build
init(wasmUrl).then(() => {
  console.assert(typeof GraphEngine === 'function');
  start();
});

async function start() {
  const out = document.getElementById('out');
  const { engine } = run(eg);
  const paused = await engine.execute({ messages: [] }, { threadId: 'vite' });
  out.textContent = `${paused.status} ${paused.state.pendingAskUser.question}`;
  const button = document.getElementById('approve');
  button.disabled = false;
  button.onclick = async () => {
    const done = await engine.resume({ threadId: 'vite' }, { role: 'user', content: 'yes' });
    out.textContent = `${done.status} sent=${done.state.data.sent} letters=${done.state.letters.join('|')}`;
  };
}
