// mcp.js: the tools of a Model Context Protocol server as agent tools. The
// client is the caller's, already connected (the official SDK's Client, or
// anything with listTools({ cursor }) and callTool({ name, arguments })): the
// SDK is not a dependency. Each MCP tool becomes a tool whose run() calls the
// server; its result goes to the model as text or JSON.
//
// Failures, by who can do something about them: a tool that reports an error
// (`isError: true`) and a request the server refuses (a JSON-RPC error:
// unknown tool, invalid arguments) are the tool's result, which the model
// sees and may correct; a server that cannot be reached, times out or drops
// the connection fails the node with MCP_ERROR naming the server and the
// tool, since no model can fix that.

import { EdgegraphError } from './errors.js';

// JSON-RPC codes the SDK uses for the connection itself, not the request: ConnectionClosed, RequestTimeout.
const TRANSPORT_CODES = [-32000, -32001];
const isRefusal = (e) => Number.isInteger(e?.code) && e.code < 0 && !TRANSPORT_CODES.includes(e.code);

// The client's credentials are not edgegraph's to know; a server or proxy that echoes a bearer token gets it hidden.
const redact = (text) => String(text).replace(/(bearer\s+)[^\s"',)]+/gi, '$1[redacted]');

function transportError(server, what, e) {
  const error = new EdgegraphError('MCP_ERROR', `MCP server '${server}': ${what} failed (${redact(e?.message ?? String(e))})`);
  // Past the tool runner's catch: the run ends with this error instead of the model seeing it.
  error.failsRun = true;
  return error;
}

/** The size of base64 data, without decoding it. */
const base64Bytes = (data = '') => Math.floor(data.length * 3 / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

/** One content part as text for the model: text as is, anything else described. */
function partText(part) {
  switch (part?.type) {
    case 'text': return part.text;
    case 'image': case 'audio': return `[${part.type}: ${part.mimeType}, ${base64Bytes(part.data)} bytes]`;
    case 'resource_link': return `[resource: ${part.uri}${part.name ? ` (${part.name})` : ''}]`;
    case 'resource': return typeof part.resource?.text === 'string' ? part.resource.text : `[resource: ${part.resource?.uri} (${part.resource?.mimeType ?? 'binary'})]`;
    default: return JSON.stringify(part);
  }
}

/** A tools/call result as the tool's value: structuredContent when there is one, else the parts' text. */
function resultValue(result) {
  const text = (result?.content ?? []).map(partText).join('\n');
  if (result?.isError) throw new Error(text || 'the MCP tool reported an error');
  if (result?.structuredContent !== undefined) return result.structuredContent;
  return text;
}

/** OpenAI's tool-name rule, ^[a-zA-Z0-9_-]{1,64}$: other characters (MCP allows '.', '/') become '_'. */
const modelName = (name, prefix) => `${prefix}${name}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);

function approvalOf(needsApproval, name) {
  if (typeof needsApproval === 'function') return (args) => !!needsApproval(name, args);
  if (Array.isArray(needsApproval)) return needsApproval.includes(name);
  return !!needsApproval;
}

/**
 * The tools of a connected MCP client, as agent tools.
 * @param {{ listTools: Function, callTool: Function, getServerVersion?: Function }} client
 * @param {{ needsApproval?: boolean | string[] | ((name: string, args: any) => boolean), prefix?: string, serverName?: string }} [options]
 */
export async function mcpTools(client, options = {}) {
  if (typeof client?.listTools !== 'function' || typeof client?.callTool !== 'function') {
    throw new EdgegraphError('INVALID_OPTIONS', 'mcpTools needs a connected MCP client (with listTools and callTool)');
  }
  const { needsApproval = false, prefix = '', serverName } = options;
  const server = serverName ?? client.getServerVersion?.()?.name ?? 'unnamed';
  const listed = [];
  let cursor;
  do {
    let page;
    try { page = await client.listTools(cursor === undefined ? undefined : { cursor }); } catch (e) { throw transportError(server, 'listing its tools', e); }
    listed.push(...(page?.tools ?? []));
    cursor = page?.nextCursor;
  } while (cursor);
  return listed.map((t) => ({
    name: modelName(t.name, prefix),
    description: t.description ?? t.title ?? '',
    parameters: t.inputSchema ?? { type: 'object', properties: {} },
    needsApproval: approvalOf(needsApproval, t.name),
    async run(args, { signal } = {}) {
      let result;
      try {
        result = await client.callTool({ name: t.name, arguments: args }, undefined, signal ? { signal } : undefined);
      } catch (e) {
        if (isRefusal(e)) throw new Error(e.message);
        throw transportError(server, `calling tool '${t.name}'`, e);
      }
      return resultValue(result);
    },
  }));
}
