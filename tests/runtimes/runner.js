// runner.js: the matrix's entry for Node, Deno and Bun (they resolve
// 'edgegraph' from node_modules with their own export conditions).
//   <runtime> runner.js pause            -> prints the checkpoint
//   <runtime> runner.js resume <file>    -> prints the summary
import * as eg from 'edgegraph';
import { pause, resume } from './graph.js';

const [mode, file] = (globalThis.Deno ? Deno.args : process.argv.slice(2));
const read = async (f) => (globalThis.Deno ? Deno.readTextFile(f) : (await import('node:fs')).readFileSync(f, 'utf8'));
const out = mode === 'pause' ? await pause(eg) : JSON.stringify(await resume(eg, await read(file)));
if (globalThis.Deno) await Deno.stdout.write(new TextEncoder().encode(out));
else process.stdout.write(out);
