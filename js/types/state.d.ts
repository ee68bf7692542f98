// Types of edgegraph: the builder, the state manager, END and loading the core (re-exported by js/index.d.ts).

import { IGraphState } from './core.js';
import { GraphDefinition, GraphNode, NodeSpec, PatchOp, ReducerFunction, ReducerName, Router, StateSchema } from './engine.js';

export class GraphBuilder<S extends object = IGraphState> {
  addNode(name: string, node: GraphNode<S> | NodeSpec<S>): this;
  addEdge(from: string, to: string | string[]): this;
  addConditionalEdge(from: string, router: Router<S> | { path: string; cases?: Record<string, string>; default?: string }, targets?: string[]): this;
  setEntryPoint(name: string): this;
  setState(state: 'frame' | 'partitioned' | StateSchema): this;
  build(): GraphDefinition<S>;
}

/** A state of partitions (seed 002). */
export interface GraphState<I = unknown> {
  readonly input: I;
  scratch: Record<string, any>;
  artifacts: Record<string, any>;
  memory: Record<string, any>;
  diagnostics: Record<string, any>;
  currentNodeId: string | null;
  visitedNodes: string[];
  iteration: number;
}

/** Pure state updates with reducers by dotted path; every method returns a new state. */
export class StateManager {
  constructor(reducers?: Record<string, ReducerName | ReducerFunction>);
  initialize<I>(input: I): GraphState<I>;
  updateScratch<I>(state: GraphState<I>, patch: Record<string, unknown>): GraphState<I>;
  updateArtifacts<I>(state: GraphState<I>, patch: Record<string, unknown>): GraphState<I>;
  updateMemory<I>(state: GraphState<I>, patch: Record<string, unknown>): GraphState<I>;
  recordNodeVisit<I>(state: GraphState<I>, nodeId: string): GraphState<I>;
  mergeParallelBranches<I>(baseState: GraphState<I>, branchStates: GraphState<I>[]): GraphState<I>;
  dispose(): void;
  [Symbol.dispose](): void;
}

export function createEndNode<S extends object = IGraphState>(): GraphNode<S>;
export const END: '__end__';

/** Load the WebAssembly core (the runtime entry points do this for you). */
export function init(source: WebAssembly.Module | BufferSource | URL | string | Response | Promise<Response>): Promise<void>;
export function initSync(source: WebAssembly.Module | BufferSource): boolean;
export function isInitialized(): boolean;
/** Bytes of WebAssembly memory the core holds (it grows, never shrinks). */
export function memoryUsage(): { wasmMemoryBytes: number };

/** Apply a state_update patch to a copy of the state you keep yourself. */
export function applyPatch(root: object, ops: PatchOp[]): void;
