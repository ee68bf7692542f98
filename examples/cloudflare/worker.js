// A Worker that runs agent graphs in Durable Objects, one object per thread.
// The object's storage holds the thread's checkpoints, so a run that pauses
// for approval can be resumed by a later request, after a deploy, or on
// another machine: Cloudflare routes the thread to its object.
//
//   POST /threads/:id/run     {"message": "..."}          start a run
//   POST /threads/:id/resume  {"decision": "approve"} | {"decision": "reject", "reason": "..."}
//   GET  /threads/:id                                      the latest state
//   GET  /threads/:id/events?message=...                  a run's events as server-sent events

import { GraphEngine, createAgentNode, kvStore, approve, reject, eventStreamResponse } from 'edgegraph';
import { createScriptedFetch } from 'edgegraph/testing';

export default {
  async fetch(request, env) {
    const match = /^\/threads\/([\w-]{1,64})(\/.*)?$/.exec(new URL(request.url).pathname);
    if (!match) return new Response('POST /threads/:id/run', { status: 404 });
    const stub = env.THREADS.get(env.THREADS.idFromName(match[1]));
    return stub.fetch(request);
  },
};

/** The offline policy used when no OPENAI_API_KEY secret is set. */
function offline({ messages }) {
  const last = messages.at(-1);
  if (last.role === 'user') return { toolCalls: [{ name: 'send_email', arguments: { to: 'ops@example.com', subject: 'Request', body: last.content } }] };
  if (last.role === 'tool' && last.content.startsWith('The user rejected')) return 'OK, I did not send it.';
  return 'The email is sent.';
}

export class ThreadRunner {
  constructor(state, env) {
    this.storage = state.storage;
    const llm = env.OPENAI_API_KEY
      ? { baseURL: env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1', apiKey: env.OPENAI_API_KEY, model: env.MODEL ?? 'gpt-4o-mini' }
      : { model: 'offline-simulator', fetch: createScriptedFetch(offline) };
    const sendEmail = {
      name: 'send_email',
      description: 'Send an email',
      parameters: { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } }, required: ['to', 'body'] },
      needsApproval: true,
      run: async (email) => { await this.storage.put(`outbox/${Date.now()}`, JSON.stringify(email)); return { sent: true }; },
    };
    this.engine = new GraphEngine({
      nodes: { agent: createAgentNode({ llm, tools: [sendEmail], agentInfo: { name: 'Ops assistant' } }) },
      edges: { agent: '__end__' },
      entryPoint: 'agent',
    }, { checkpointer: kvStore(this.storage) });
  }

  async fetch(request) {
    try {
      return await this.handle(request);
    } catch (e) {
      // Two requests for one thread at once (a double-click, a retry): the second is THREAD_BUSY, and nothing ran twice.
      if (e.code === 'THREAD_BUSY') return Response.json({ error: e.code, message: e.message }, { status: 409 });
      throw e;
    }
  }

  async handle(request) {
    const url = new URL(request.url);
    const [, , threadId, action] = url.pathname.split('/');
    const summary = (r) => Response.json({ status: r.status, approval: r.state.pendingAskUser ?? null, output: r.state.lastModelOutput ?? null, error: r.error?.message ?? null });
    if (request.method === 'POST' && action === 'run') {
      const { message } = await request.json();
      return summary(await this.engine.execute({ messages: [{ role: 'user', content: String(message) }] }, { threadId }));
    }
    if (request.method === 'POST' && action === 'resume') {
      const body = await request.json();
      const decision = body.decision === 'reject' ? reject(body.reason ?? 'rejected') : approve();
      return summary(await this.engine.resume({ threadId }, decision));
    }
    if (request.method === 'GET' && action === 'events') {
      const message = url.searchParams.get('message') ?? 'hello';
      return eventStreamResponse(this.engine.stream({ messages: [{ role: 'user', content: message }] }, { threadId }));
    }
    if (request.method === 'GET' && !action) {
      const now = await this.engine.getState(threadId);
      const outbox = [...(await this.storage.list({ prefix: 'outbox/' })).values()].map((v) => JSON.parse(v));
      return Response.json({ status: now?.status ?? null, checkpointId: now?.checkpointId ?? null, outbox });
    }
    return new Response('not found', { status: 404 });
  }
}
