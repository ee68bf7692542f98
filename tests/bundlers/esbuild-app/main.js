// An esbuild app: the .wasm is a file asset (--loader:.wasm=file), handed to init.
import * as eg from 'edgegraph/core';
import wasmUrl from 'edgegraph/edgegraph.wasm';
import { mount } from './shared-graph.js';

await eg.init(new URL(wasmUrl, import.meta.url));
mount(eg, 'esbuild');
