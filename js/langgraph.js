// langgraph.js: the entry `edgegraph/langgraph`: LangGraph.js's API
// (StateGraph, Annotation, MessagesAnnotation, Send, MemorySaver, stream modes)
// running on edgegraph's C core. It imports `edgegraph` itself (not bundled in),
// so it adds only this layer to an app. See docs/migrating-from-langgraph.md.

export { StateGraph, START, END, Send } from './langgraph/graph.js';
export { CompiledStateGraph } from './langgraph/compiled.js';
export { Annotation, MessagesAnnotation } from './langgraph/annotation.js';
export { messagesStateReducer, addMessages, RemoveMessage, REMOVE_ALL_MESSAGES, toPlainMessage } from './langgraph/messages.js';
export { MemorySaver, BaseCheckpointSaver } from './langgraph/checkpoint.js';
export { BaseLangGraphError, GraphRecursionError, InvalidUpdateError, GraphValidationError, UnreachableNodeError, EmptyInputError, isGraphRecursionError, NodeTimeoutError, isNodeTimeoutError, UnknownInterruptError, isUnknownInterruptError, GraphValueError, EmptyChannelError, StateGraphInputError, MultipleSubgraphsError, RemoteException, NodeError, isNodeError } from './langgraph/errors.js';
export { Command, isCommand, interrupt, isGraphInterrupt } from './langgraph/command.js';
export { GraphInterrupt } from './langgraph/edgegraph.js';
export { InMemoryCache } from './langgraph/cache.js';
export { getConfig, getWriter, getCurrentTaskInput } from './langgraph/config.js';
export { INTERRUPT, isInterrupted } from './langgraph/interrupted.js';
export { ToolNode, toolsCondition } from './langgraph/tool-node.js';
export { Overwrite } from './langgraph/overwrite.js';
export { StateSchema, ReducedValue, UntrackedValue, DeltaValue, MessagesValue, MessagesDeltaValue, isStandardSchema, getSchemaDefaultGetter, getJsonSchemaFromSchema } from './langgraph/state-schema.js';
export { NodeInterrupt, ParentCommand, isParentCommand, isGraphBubbleUp, GraphBubbleUp } from './langgraph/bubble-up.js';
