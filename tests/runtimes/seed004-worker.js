// seed004-worker.js: seed 004's agent as a Cloudflare Worker (workerd, through
// miniflare). POST /pause?llm=<baseURL> answers with the paused thread;
// POST /resume?llm=<baseURL>&decision=<text> takes that thread as its body.
// Nothing is kept between requests: the thread travels in them.
import { pause, resume } from './seed004.js';

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const llm = url.searchParams.get('llm');
    if (url.pathname === '/pause') return new Response(await pause(llm));
    if (url.pathname === '/resume') return Response.json(await resume(await request.text(), llm, url.searchParams.get('decision')));
    return new Response('not found', { status: 404 });
  },
};
