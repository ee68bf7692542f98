// worker.js: the matrix's Cloudflare Worker (workerd, through miniflare).
// edgegraph's `workerd` entry imports the .wasm as a module: no compiling
// from bytes, which Workers forbid.
import * as eg from 'edgegraph';
import { pause, resume } from './graph.js';

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/pause') return new Response(await pause(eg));
    if (url.pathname === '/resume') return Response.json(await resume(eg, await request.text(), url.searchParams.get('llm')));
    return new Response('not found', { status: 404 });
  },
};
