import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

const CLEAN_ENV = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

describe('installing auggy from a packed tarball (README: Installing for a team or CI)', () => {
  it('npm pack, then an offline install of the tarball gives an auggy that runs the demo', async () => {
    const work = tempDir('auggy-pack-');
    // dist/ is built before the suite runs (npm test builds); `prepare` would build it again.
    const pack = await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: REPO_ROOT, reject: false });
    expect(pack.exitCode, pack.stderr).toBe(0);
    const [tarball] = readdirSync(work).filter((name) => name.endsWith('.tgz'));
    expect(tarball).toMatch(/^auggy-\d+\.\d+\.\d+\.tgz$/);
    // Offline, from npm's cache (which the repository's own install filled): the test never needs
    // the network. npm resolves a dependency range from the registry's full metadata, which an
    // install from a lock file never fetched; so the app that installs the tarball gets a lock file
    // made of the repository's, and npm ci takes each package by its integrity from the cache.
    const app = join(work, 'app');
    mkdirSync(app);
    cpSync(join(work, tarball), join(app, tarball));
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; name?: string; version?: string; resolved?: string }>;
    };
    // The repository's lock names no tarball addresses (npm may be set to leave them out): each is
    // the registry's, as npm would write it, so npm looks nothing up.
    const tarballOf = (path: string, entry: { name?: string; version?: string }) => {
      const packageName = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      return `https://registry.npmjs.org/${packageName}/-/${packageName.split('/').at(-1)}-${entry.version}.tgz`;
    };
    const shipped = Object.fromEntries(
      Object.entries(lock.packages)
        .filter(([path, entry]) => path.startsWith('node_modules/') && entry.dev !== true)
        .map(([path, entry]) => [path, { resolved: tarballOf(path, entry), ...entry }]),
    );
    const { name, version: packed, bin: bins, engines, license, dependencies } = manifest;
    // The repository pins one copy of the AI SDK's shared packages with overrides ("$name": its own
    // dependency's version); overrides hold only at a project's root, so the app states them itself.
    const overrides = Object.fromEntries(
      Object.keys((manifest.overrides ?? {}) as Record<string, string>).map((dependency) => [dependency, lock.packages[`node_modules/${dependency}`]?.version]),
    );
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies: { auggy: `file:${tarball}` }, overrides }));
    writeFileSync(
      join(app, 'package-lock.json'),
      JSON.stringify({
        name: 'app',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'app', dependencies: { auggy: `file:${tarball}` } },
          ...shipped,
          'node_modules/auggy': { name, version: packed, resolved: `file:${tarball}`, license, dependencies, bin: bins, engines },
        },
      }),
    );
    const install = await execa('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: app, reject: false });
    expect(install.exitCode, install.stderr).toBe(0);
    const bin = join(app, 'node_modules', '.bin', 'auggy');
    const version = await execa(bin, ['--version'], { reject: false, env: CLEAN_ENV });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    // The demo as the package ships it, copied out so the installed package is never written.
    const demo = join(tempDir('auggy-demo-'), 'demo');
    cpSync(join(app, 'node_modules', 'auggy', 'examples', 'demo'), demo, { recursive: true });
    const run = await execa(bin, ['run', demo, '--print', 'hello'], { reject: false, env: CLEAN_ENV });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Hello! I'm the demo agent\./);
  }, 300_000);
});
