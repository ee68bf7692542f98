// A webpack 5 app importing the package's main entry, with no webpack
// configuration for it: webpack turns `new URL('./edgegraph.wasm',
// import.meta.url)` inside edgegraph into an emitted asset, and supports the
// entry's top-level await.
import * as eg from 'edgegraph';
import { mount } from './shared-graph.js';

mount(eg, 'webpack');
