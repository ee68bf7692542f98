// A Worker for sql-store.test.js: the exclusive-resume graph on D1
// (/d1/...) and on a SQLite-backed Durable Object (/do/...). The `send`
// node's side effect is a request to HOLD_URL, which the test holds.
//   POST /<d1|do>/start | /<d1|do>/resume   -> { status } or 409 { code, message }

import { GraphEngine, doSqlStore, d1Store } from 'edgegraph';
import { busyGraph } from './busy-graph.js';

async function handle(request, store, env) {
  const action = new URL(request.url).pathname.split('/').at(-1);
  const engine = new GraphEngine(busyGraph(() => fetch(env.HOLD_URL, { method: 'POST' })), { checkpointer: store });
  try {
    const r = action === 'start'
      ? await engine.execute({}, { threadId: 'mail' })
      : await engine.resume({ threadId: 'mail' }, { role: 'user', content: 'yes' });
    return Response.json({ status: r.status, error: r.error?.message });
  } catch (e) {
    return Response.json({ code: e.code, message: e.message }, { status: 409 });
  }
}

export default {
  fetch(request, env) {
    if (new URL(request.url).pathname.startsWith('/d1/')) return handle(request, d1Store(env.DB), env);
    return env.THREADS.get(env.THREADS.idFromName('mail')).fetch(request);
  },
};

export class Threads {
  constructor(ctx, env) { this.store = doSqlStore(ctx.storage.sql); this.env = env; }
  fetch(request) { return handle(request, this.store, this.env); }
}
