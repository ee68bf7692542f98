// file-store.js: checkpoints as files in a folder (Node, Deno, Bun). Each
// put writes a temporary file and renames it over the key's file, so a crash
// mid-write leaves the previous value intact. create writes a temporary file
// and hard-links it to the key's name: link fails when the name exists (in
// every process on the machine at once), and the file it makes is complete.

// Node's promise API and node:path are loaded on first use: an ES import of
// node:fs makes Node load it, and some twenty stream modules, in every
// program's cold start; one of node:path, the bundle's only import of a
// builtin, costs ~1M instructions of it.
let fs = null;
let join = null;
const loadFs = async () => {
  fs ??= await import('node:fs/promises');
  join ??= (await import('node:path')).join;
};

const encode = (key) => encodeURIComponent(key).replace(/\./g, '%2E');
const decode = (name) => decodeURIComponent(name);
let counter = 0;

export class FileStore {
  constructor(dir) { this.dir = dir; this.ready = loadFs().then(() => fs.mkdir(dir, { recursive: true })); }
  async get(key) {
    await this.ready;
    try { return await fs.readFile(join(this.dir, encode(key)), 'utf8'); } catch (e) { if (e.code === 'ENOENT') return undefined; throw e; }
  }
  async put(key, value) {
    const [file, tmp] = await this.#temp(key, value);
    await fs.rename(tmp, file);
  }
  async create(key, value) {
    const [file, tmp] = await this.#temp(key, value);
    try {
      await fs.link(tmp, file);
      return true;
    } catch (e) {
      if (e.code === 'EEXIST') return false;
      throw e;
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }
  /** The value written in full under a name of its own: [the key's file, the temporary file]. */
  async #temp(key, value) {
    await this.ready;
    const file = join(this.dir, encode(key));
    const tmp = `${file}.${process.pid}.${++counter}.tmp`;
    await fs.writeFile(tmp, String(value));
    return [file, tmp];
  }
  async delete(key) { await this.ready; await fs.rm(join(this.dir, encode(key)), { force: true }); }
  async list(prefix = '') {
    await this.ready;
    return (await fs.readdir(this.dir)).filter((n) => !n.endsWith('.tmp')).map(decode).filter((k) => k.startsWith(prefix)).sort();
  }
}
