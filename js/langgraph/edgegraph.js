// edgegraph.js: what this entry takes from edgegraph, in one place (one import of
// `edgegraph` in a bundle of this entry, which keeps `edgegraph` external).

export { GraphEngine, STREAM_MODES, EdgegraphError, Checkpointer, MemoryStore, cachedCall, clearNodeCache, InMemoryCache, interrupt, isGraphInterrupt, GraphInterrupt, currentNodeContext, Command as EngineCommand } from 'edgegraph';
