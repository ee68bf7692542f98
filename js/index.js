// index.js: the public API, without loading the WebAssembly core. The
// runtime entry points (node.js, browser.js, workerd.js) load it and then
// re-export everything here.

export { init, initSync, isInitialized, memoryUsage } from './loader.js';
export { GraphEngine } from './engine.js';
export { GraphBuilder } from './builder.js';
export { StateManager } from './state-manager.js';
export { ChatHistoryManager } from './history.js';
export { createEndNode, END, send, defineGraph } from './definition.js';
export { EdgegraphError } from './errors.js';
export { applyPatch } from './patch.js';
export { graphEdges, isEndNode } from './edges.js';
export { ChatClient, createChatClient, LLMError } from './llm.js';
export { createAgentNode, createLLMNode, createToolsNode, routeOnToolCalls, createAskUserNode, approve, reject, editArguments, tool } from './agent.js';
export { validate as validateJsonSchema } from './schema.js';
export { Checkpointer } from './checkpointer.js';
export { MemoryStore, LocalStorageStore, IndexedDBStore, browserStore, kvStore } from './stores.js';
export { eventStreamResponse, toServerSentEvents, readServerSentEvents, eventData } from './sse.js';
export { onLeakWarning } from './leaks.js';
// MCP tools are loaded on first use (dist/mcp.js): apps without MCP do not carry them.
export const mcpTools = async (client, options) => (await import('./mcp.js')).mcpTools(client, options);
export { interrupt, isGraphInterrupt, GraphInterrupt, currentNodeContext } from './interrupt.js';
export { Command } from './command.js';
export { STREAM_MODES } from './events.js';
export { InMemoryCache, cachedCall, clearNodeCache } from './node-cache.js';
