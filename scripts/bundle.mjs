// `npm run build`, after tsc: joins dist/ into dist/bundle/ (see rolldown.config.mjs), quietly.
import { build } from 'rolldown';
import config from '../rolldown.config.mjs';

await build(config);
