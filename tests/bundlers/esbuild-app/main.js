// An esbuild app: the .wasm is a file asset (--loader:.wasm=file), handed to init.
import * as eg from 'edgegraph/core';
import wasmUrl from 'edgegraph/edgegraph.wasm';
import { run } from './shared-graph.js';

async function start() {
  await eg.init(new URL(wasmUrl, import.meta.url));
  const out = document.getElementById('out');
  const { engine } = run(eg);
  const paused = await engine.execute({ messages: [] }, { threadId: 'esbuild' });
  out.textContent = `${paused.status} ${paused.state.pendingAskUser.question}`;
  const button = document.getElementById('approve');
  button.disabled = false;
  button.onclick = async () => {
    const done = await engine.resume({ threadId: 'esbuild' }, { role: 'user', content: 'yes' });
    out.textContent = `${done.status} sent=${done.state.data.sent} letters=${done.state.letters.join('|')}`;
  };
}
start();
