// Types of edgegraph: stream modes, engine.stream(input, { streamMode }) (re-exported by js/index.d.ts; docs/streaming.md).

import { GraphStatus, Message, RunErrorInfo } from './core.js';

export type StreamMode = 'values' | 'updates' | 'custom' | 'messages' | 'tasks' | 'checkpoints' | 'debug';
/** Every stream mode, in the order docs/streaming.md describes them. */
export const STREAM_MODES: readonly StreamMode[];

/** stream() and streamResume() options beside the run's. */
export interface StreamModeOptions<M extends StreamMode | readonly StreamMode[] = StreamMode | readonly StreamMode[], G extends boolean = boolean> {
  /** One mode (its chunks) or a list (each chunk as [mode, chunk]); without it, the raw run events. */
  streamMode: M;
  /** Also the chunks of subgraph nodes' runs, each with its namespace first ([] for this graph's own). */
  subgraphs?: G;
}

/** A pending interrupt, as the run's pause reports it. */
export interface StreamInterrupt { id: string; value: any; node: string }

/** A node's update, by node name; or, when the run pauses, `__interrupt__`: its pending interrupts. */
export type UpdatesChunk<S> = { [node: string]: Partial<S> & Record<string, any> } & { __interrupt__?: StreamInterrupt[] };

/** Where a messages chunk comes from. */
export interface MessageMetadata { node: string; step: number; taskId: string }
/** A token of an LLM node (role assistant, `id` its task's id) or a message a node returned. */
export type MessagesChunk = [Message & { id?: string }, MessageMetadata];

export interface TaskStart { id: string; name: string; step: number }
export interface TaskResult extends TaskStart {
  /** What the node wrote; null when it failed or stopped at interrupt(). */
  result: Record<string, unknown> | null;
  /** Why it failed (null when it did not). */
  error: { code: RunErrorInfo['code'] | undefined; message: string } | null;
  /** The node called interrupt(): the run pauses. */
  interrupted?: true;
}

/** A checkpoint of the run's thread. */
export interface CheckpointChunk<S> {
  threadId: string; checkpointId: number; status: GraphStatus; superstep: number;
  /** The state then. */
  values: S;
  /** The nodes its step runs (still to run, for a checkpoint taken mid-step). */
  next: string[];
}

export type DebugChunk<S> = { step: number; timestamp: string } & (
  | { type: 'task'; payload: TaskStart }
  | { type: 'task_result'; payload: TaskResult }
  | { type: 'checkpoint'; payload: CheckpointChunk<S> });

/** What one chunk of each mode is, for state S. */
export interface StreamChunks<S> {
  values: S;
  updates: UpdatesChunk<S>;
  /** What the node sent (its own data). */
  custom: any;
  messages: MessagesChunk;
  tasks: TaskStart | TaskResult;
  checkpoints: CheckpointChunk<S>;
  debug: DebugChunk<S>;
}

/** A stream's chunk: one mode's chunk, [mode, chunk] for a list, with the namespace first for subgraphs. */
export type StreamChunk<S, M, G extends boolean = false> =
  M extends readonly (infer K extends StreamMode)[]
    ? { [k in K]: G extends true ? [string[], k, StreamChunks<S>[k]] : [k, StreamChunks<S>[k]] }[K]
    : M extends StreamMode ? (G extends true ? [string[], StreamChunks<S>[M]] : StreamChunks<S>[M]) : never;

/** stream({ streamMode })'s chunks; leaving the loop aborts the run. A run that fails (or is aborted) throws its error from the loop. */
export interface ModeStream<C, R> extends AsyncIterable<C> {
  /** The run's result, whatever its status (a failed one's state, a paused one's checkpoint). */
  readonly result: Promise<R>;
}
