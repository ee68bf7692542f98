// file-store.js: checkpoints as files in a folder (Node, Deno, Bun). Each
// put writes a temporary file and renames it over the key's file, so a crash
// mid-write leaves the previous value intact.

import { promises as fs } from 'node:fs';
import { join } from 'node:path';

const encode = (key) => encodeURIComponent(key).replace(/\./g, '%2E');
const decode = (name) => decodeURIComponent(name);

export class FileStore {
  constructor(dir) { this.dir = dir; this.ready = fs.mkdir(dir, { recursive: true }); }
  async get(key) {
    await this.ready;
    try { return await fs.readFile(join(this.dir, encode(key)), 'utf8'); } catch (e) { if (e.code === 'ENOENT') return undefined; throw e; }
  }
  async put(key, value) {
    await this.ready;
    const file = join(this.dir, encode(key));
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(tmp, String(value));
    await fs.rename(tmp, file);
  }
  async delete(key) { await this.ready; await fs.rm(join(this.dir, encode(key)), { force: true }); }
  async list(prefix = '') {
    await this.ready;
    return (await fs.readdir(this.dir)).filter((n) => !n.endsWith('.tmp')).map(decode).filter((k) => k.startsWith(prefix)).sort();
  }
}
