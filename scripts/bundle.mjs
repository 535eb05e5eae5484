// `npm run build`, after tsc: joins src/ and its dependencies into dist/bundle/ (see
// rolldown.config.mjs). Chunk names carry a content hash, so the folder is emptied first:
// otherwise every build would leave the previous build's chunks beside the new ones.
import { copyFileSync, rmSync } from 'node:fs';
import { build } from 'rolldown';
import configs from '../rolldown.config.mjs';

rmSync(new URL('../dist/bundle', import.meta.url), { recursive: true, force: true });
rmSync(new URL('../dist/console', import.meta.url), { recursive: true, force: true });
for (const config of configs) await build(config);
// The Console's page and styles are plain files beside its script.
for (const file of ['index.html', 'console.css', 'icon.svg'])
  copyFileSync(new URL(`../web/console/${file}`, import.meta.url), new URL(`../dist/console/${file}`, import.meta.url));
