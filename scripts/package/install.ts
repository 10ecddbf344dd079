// Packs the package as a release would (`npm pack`, which runs "prepare" and so builds lib/ afresh) and installs
// the tarball into an empty folder, as a user would. The install test (tests/package/install.test.ts) and the
// cold-start bench (scripts/bench/cold-start.ts) run the CLI from there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface InstalledPackage {
  /** The empty folder the tarball was installed into (now with its package.json and node_modules). */
  dir: string;
  /** node_modules/ctxray inside it. */
  packageDir: string;
  /** The installed `ctxray` bin's script, as package.json names it. */
  bin: string;
  /** Paths inside the tarball, as `npm pack` lists them. */
  packedFiles: string[];
}

/** Packages that run TypeScript or transpile it at load time: none may be in a user's install. */
export const TYPESCRIPT_LOADERS = [
  'tsx',
  'ts-node',
  'typescript',
  'jiti',
  'esbuild',
  'esbuild-register',
  'esbuild-runner',
  '@esbuild-kit/esm-loader',
  '@esbuild-kit/cjs-loader',
  '@swc/core',
  '@swc/register',
  '@swc-node/register',
  'sucrase',
  '@babel/register',
  'ts-blank-space',
  'amaro',
  'tsimp',
  'esno',
] as const;

const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];

export function packAndInstall(root: string, log: (line: string) => void = () => undefined): InstalledPackage {
  const work = mkdtempSync(path.join(tmpdir(), 'ctxray-install-'));
  log('npm pack (runs prepare: build:lib) ...');
  const packOutput = execFileSync('npm', ['pack', '--json', '--pack-destination', work, ...NPM_QUIET], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
  const [packed] = JSON.parse(packOutput) as { filename: string; files: { path: string }[] }[];
  if (!packed) throw new Error('npm pack listed no tarball');
  const dir = path.join(work, 'install');
  mkdirSync(dir);
  log('npm install <tarball> into an empty folder ...');
  // The registry for the dependencies (the shared cache first), nothing else: no checkout, no link.
  execFileSync('npm', ['install', '--prefer-offline', ...NPM_QUIET, path.join(work, packed.filename)], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const packageDir = path.join(dir, 'node_modules', 'ctxray');
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const binPath = manifest.bin['ctxray'];
  if (binPath === undefined) throw new Error('the installed package.json names no ctxray bin');
  return { dir, packageDir, bin: path.join(packageDir, binPath), packedFiles: packed.files.map((file) => file.path) };
}

/** Names of every package installed anywhere under `nodeModules` (nested ones too), from their folders. */
export function installedPackageNames(nodeModules: string): Set<string> {
  const names = new Set<string>();
  const visit = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      if (entry.name.startsWith('@')) {
        for (const scoped of readdirSync(path.join(folder, entry.name), { withFileTypes: true })) {
          if (scoped.isDirectory()) visitPackage(`${entry.name}/${scoped.name}`, path.join(folder, entry.name, scoped.name));
        }
      } else visitPackage(entry.name, path.join(folder, entry.name));
    }
  };
  const visitPackage = (name: string, dir: string) => {
    if (existsSync(path.join(dir, 'package.json'))) names.add(name);
    visit(path.join(dir, 'node_modules'));
  };
  visit(nodeModules);
  return names;
}
