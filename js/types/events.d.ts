// Types of edgegraph: a graph's edges and server-sent events (re-exported by js/index.d.ts).

import { GraphEvent } from './engine.js';

// ---- server-sent events ----

/** A Response streaming a run's events as server-sent events. */
/** `init.signal`: the request's signal; a client that leaves aborts the run. */
/** The arrows of a JSON graph definition (engine.definition), as toMermaid() and diagrams draw them. */
export function graphEdges(definition: object): Array<{ from: string; to: string; label: string; conditional: boolean }>;
/** Whether `name` is an END node of the definition. */
export function isEndNode(definition: object, name: string): boolean;

export function eventStreamResponse(events: AsyncIterable<GraphEvent<any>>, init?: ResponseInit & { keepAliveMs?: number; signal?: AbortSignal }): Response;
export function toServerSentEvents(events: AsyncIterable<GraphEvent<any>>, options?: { keepAliveMs?: number; signal?: AbortSignal }): ReadableStream<Uint8Array>;
/** Events back from a Response (or byte stream) of server-sent events. */
export function readServerSentEvents(source: Response | ReadableStream<Uint8Array>): AsyncIterable<Record<string, unknown> & { type: string }>;
/** An event as JSON-safe data (run_end carries status, state, checkpoint and error). */
export function eventData(event: GraphEvent<any>): Record<string, unknown>;
