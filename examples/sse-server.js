// sse-server.js: stream a run's events to a browser as server-sent events
// from a plain Node handler (a Worker returns eventStreamResponse() as is).
//   node examples/sse-server.js  ->  open http://127.0.0.1:8787/
// The page uses EventSource and shows events as they arrive.

import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GraphEngine, eventStreamResponse } from 'edgegraph';
import { definition } from './research-assistant.js';

const page = `<!doctype html><meta charset="utf-8"><title>edgegraph events</title>
<h1>Run events</h1><ol id="log"></ol>
<script type="module">
  const log = document.getElementById('log');
  const source = new EventSource('/run?idea=' + encodeURIComponent('people code better with music'));
  for (const type of ['node_start', 'node_end', 'route', 'state_update', 'checkpoint', 'run_end']) {
    source.addEventListener(type, (e) => {
      const li = document.createElement('li');
      li.textContent = type + ' ' + e.data.slice(0, 160);   // text, never HTML
      log.append(li);
      if (type === 'run_end') source.close();
    });
  }
</script>`;

export function handler(engine) {
  return async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname === '/') { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(page); return; }
    if (url.pathname !== '/run') { res.writeHead(404); res.end(); return; }
    const idea = url.searchParams.get('idea') ?? 'an idea';
    // The client leaving (closing the tab, EventSource.close()) aborts the run.
    const left = new AbortController();
    res.on('close', () => left.abort());
    const response = eventStreamResponse(engine.stream({ messages: [{ role: 'user', content: idea }], data: { user_input: idea } }), { signal: left.signal });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    pipeline(Readable.fromWeb(response.body), res).catch(() => { /* the client left */ });
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = createServer(handler(new GraphEngine(definition)));
  server.listen(Number(process.env.PORT ?? 8787), '127.0.0.1', () => console.log(`open http://127.0.0.1:${server.address().port}/`));
}
