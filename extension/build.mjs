// Build the unpacked extension into dist/ (`npm run build`): one file per entry, bundled by
// esbuild (no minification, no source maps: the output is the same bytes for the same sources),
// the static files copied, and the in-page script joined from client/page_script/ — the one
// implementation the Python reference client loads too (client/snapshot.py reads dist/page_script.js).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const fragments = join(here, '..', 'client', 'page_script');

/** The page script: the fragments in parts.json order, wrapped in one function scope. */
export function pageScript() {
  const parts = JSON.parse(readFileSync(join(fragments, 'parts.json'), 'utf8'));
  const body = parts.map((name) => readFileSync(join(fragments, name), 'utf8')).join('\n');
  return `(() => {\n${body}})();\n`;
}

const ENTRIES = {
  background: 'src/background/index.ts',
  content: 'src/content/index.ts',
  sidepanel: 'src/sidepanel/index.ts',
  options: 'src/options/index.ts',
};

rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'icons'), { recursive: true });
for (const [name, entry] of Object.entries(ENTRIES)) {
  await build({
    absWorkingDir: here, // the source-path comments esbuild writes do not depend on where the build runs
    entryPoints: [join(here, entry)],
    outfile: join(dist, `${name}.js`),
    bundle: true,
    format: 'iife',
    target: 'chrome120',
    minify: false,
    sourcemap: false,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
  });
}
for (const name of readdirSync(join(here, 'static'))) {
  if (name === 'icons') continue;
  copyFileSync(join(here, 'static', name), join(dist, name));
}
for (const name of readdirSync(join(here, 'static', 'icons'))) {
  copyFileSync(join(here, 'static', 'icons', name), join(dist, 'icons', name));
}
writeFileSync(join(dist, 'page_script.js'), pageScript());
console.log(`built ${dist}`);
