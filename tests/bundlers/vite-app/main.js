// A Vite app using edgegraph exactly as the README shows.
import * as eg from 'edgegraph/core';
import { mount } from './shared-graph.js';

import { init, GraphEngine } from 'edgegraph/core';
import wasmUrl from 'edgegraph/edgegraph.wasm?url';   // Vite's ?url: the file's URL after the build
init(wasmUrl).then(() => {
  console.assert(typeof GraphEngine === 'function');
  start();
});

function start() { return mount(eg, 'vite'); }
