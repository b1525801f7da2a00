// Load a TypeScript module of src/ for a test: bundled in memory by esbuild (ESM), imported from a data: URL.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function load(path) {
  const out = await build({ entryPoints: [join(root, path)], bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent' });
  const code = out.outputFiles[0].text;
  return import('data:text/javascript;base64,' + Buffer.from(code).toString('base64'));
}
