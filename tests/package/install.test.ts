// The package as a user gets it: `npm pack`, the tarball installed into an empty folder (dependencies from the
// registry, nothing linked to the checkout), every command and the library run from there, with the same records
// as the checkout's CLI. One pack and one install for the whole file (about a minute, more on a loaded machine).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedPackageNames, packAndInstall, TYPESCRIPT_LOADERS, type InstalledPackage } from '../../scripts/package/install.ts';
import { expectedQualification } from '../../src/node/qualification.ts';

const ROOT = path.resolve(__dirname, '../..');
const EXAMPLES = path.join(ROOT, 'examples');
const CHECKOUT_BIN = path.join(ROOT, 'bin/ctxray.mjs');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const RUN_TIMEOUT = 120_000;

const BUILD_CASE = path.join(EXAMPLES, 'clearing/build');
const buildCaseArgs = (qualification = path.join(BUILD_CASE, 'qualification.json')) => [
  'clearing',
  '--journals', path.join(BUILD_CASE, 'journals'),
  '--sidecar', path.join(BUILD_CASE, 'sidecar.sqlite'),
  '--routes', path.join(BUILD_CASE, 'routes.json'),
  '--qualification', qualification,
  '--agent-config', path.join(BUILD_CASE, 'agent-config.json'),
  '--app-allowlist', path.join(BUILD_CASE, 'app-allowlist.json'),
];
// A gzipped Claude log and an OpenAI one (counted with gpt-tokenizer's o200k vocabulary, loaded from the install).
const ANALYZED = [path.join(EXAMPLES, 'synthetic-anthropic-agent-cache-bust.jsonl.gz'), path.join(EXAMPLES, 'synthetic-openai-chat-tools-reordered.jsonl')];
const ANALYZE_ARGS = ['analyze', ...ANALYZED, '--json', '-'];
const DUPES_ARGS = ['dupes', path.join(EXAMPLES, 'synthetic-anthropic-file-reread.jsonl')];

/** The fenced block after an HTML comment marker in a Markdown file. */
function fencedAfter(markdown: string, marker: string): string {
  const at = markdown.indexOf(marker);
  if (at < 0) throw new Error(`no ${marker} in the document`);
  const match = /```[a-z]*\n([\s\S]*?)```/.exec(markdown.slice(at));
  if (!match) throw new Error(`no fenced block after ${marker}`);
  return match[1]!;
}

let installed: InstalledPackage;

function installedCli(args: string[]): SpawnSyncReturns<string> {
  // What the issue asks a user to type: npx resolves the installed bin, --no forbids fetching anything.
  return spawnSync('npx', ['--no', '--', 'ctxray', ...args], { cwd: installed.dir, encoding: 'utf8', timeout: RUN_TIMEOUT });
}

function checkoutCli(args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CHECKOUT_BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: RUN_TIMEOUT });
}

function node(script: string, args: string[] = []): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [script, ...args], { cwd: installed.dir, encoding: 'utf8', timeout: RUN_TIMEOUT });
}

describe('the packed tarball installed into an empty folder', () => {
  beforeAll(() => {
    installed = packAndInstall(ROOT);
  }, 900_000);

  afterAll(() => {
    if (installed) rmSync(path.dirname(installed.dir), { recursive: true, force: true });
  }, 120_000);

  it('npx --no -- ctxray --version prints the package version', () => {
    const run = installedCli(['--version']);
    expect([run.status, run.stdout, run.stderr]).toEqual([0, `ctxray ${VERSION}\n`, '']);
  });

  it('every command the CLI lists answers --help from the install (commands added later are picked up too)', () => {
    const usage = installedCli(['--help']);
    expect(usage.status).toBe(0);
    const listed = usage.stdout.split('commands:\n')[1]?.split('\n\n')[0] ?? '';
    const commands = listed.split('\n').map((line) => /^ {2}(\S+) /.exec(line)?.[1] ?? `unparsed line "${line}"`);
    expect(commands).toEqual(expect.arrayContaining(['analyze', 'dupes', 'clearing', 'qualify']));
    for (const command of commands) {
      const run = spawnSync(process.execPath, [installed.bin, command, '--help'], { cwd: installed.dir, encoding: 'utf8', timeout: RUN_TIMEOUT });
      expect([command, run.status, run.stderr]).toEqual([command, 0, '']);
      expect(run.stdout).toContain(`usage: ctxray ${command}`);
    }
  });

  it('ships only what runs: the built JavaScript with its declarations, and the package documents', () => {
    const others = installed.packedFiles.filter((file) => !/^lib\/.+\.(js|d\.ts)$/.test(file));
    expect(others.sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
    expect(installed.packedFiles).toEqual(expect.arrayContaining(['lib/index.js', 'lib/index.d.ts', 'lib/bin/ctxray.js', 'lib/bin/session-worker.js']));
    expect(path.relative(installed.packageDir, installed.bin)).toBe(path.join('lib', 'bin', 'ctxray.js'));
  });

  it('has no TypeScript loader anywhere under its node_modules', () => {
    const names = installedPackageNames(path.join(installed.dir, 'node_modules'));
    expect(names.has('ctxray')).toBe(true);
    expect(names.has('@mariozechner/pi-ai')).toBe(true);
    expect(TYPESCRIPT_LOADERS.filter((loader) => names.has(loader))).toEqual([]);
  });

  it('analyze on two examples prints the checkout\'s record (24 + 8 requests, the volatile-prefix finding) and writes the versioned HTML report', () => {
    const html = path.join(installed.dir, 'report.html');
    const run = installedCli([...ANALYZE_ARGS, '--html', html]);
    expect(run.status).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain(`ctxray ${VERSION} · prices as of`);
    const record = JSON.parse(run.stdout) as { generatedBy: string; requests: { model: string }[]; findings: { code: string }[] };
    expect(record.generatedBy).toBe(`ctxray ${VERSION}`);
    expect(record.requests).toHaveLength(32);
    expect(record.requests[24]?.model).toBe('gpt-4o-2024-08-06');
    expect(record.findings.map((finding) => finding.code)).toContain('volatile_value_in_prefix');
    expect(run.stdout).toBe(checkoutCli(ANALYZE_ARGS).stdout);
  });

  it('dupes on the file re-read example fails (exit 1) with the checkout\'s record', () => {
    const run = installedCli(DUPES_ARGS);
    expect(run.status).toBe(1);
    expect((JSON.parse(run.stdout) as { result: string }).result).toBe('fail');
    expect(run.stdout).toBe(checkoutCli(DUPES_ARGS).stdout);
  });

  it('clearing on the BUILD case with its optional files says BUILD, as the checkout and expected.json do', () => {
    const run = installedCli(buildCaseArgs());
    expect(run.status).toBe(0);
    const record = JSON.parse(run.stdout) as { verdict: string; qualification: { status: string }; apis: { api: string; verdict: string; codes: string[] }[] };
    const expected = JSON.parse(readFileSync(path.join(BUILD_CASE, 'expected.json'), 'utf8')) as { verdict: string; apis: { api: string; verdict: string; codes: string[] }[] };
    expect(record.verdict).toBe('BUILD');
    // A current qualification: the installed pi-ai version and the baked source digest both match the record.
    expect(record.qualification.status).toBe('current');
    expect(record.apis.map(({ api, verdict, codes }) => ({ api, verdict, codes }))).toEqual(expected.apis);
    expect(run.stdout).toBe(checkoutCli(buildCaseArgs()).stdout);
  });

  it('qualify names the pi-ai installed beside the package and the checkout\'s source digest, and clearing accepts its record', async () => {
    const out = path.join(installed.dir, 'qualification.json');
    const run = installedCli(['qualify', '--out', out]);
    expect(run.status).toBe(0);
    const record = JSON.parse(readFileSync(out, 'utf8')) as { piAiVersion: string; sourceDigest: string };
    const piAi = JSON.parse(readFileSync(path.join(installed.dir, 'node_modules/@mariozechner/pi-ai/package.json'), 'utf8')) as { version: string };
    expect(record.piAiVersion).toBe(piAi.version);
    expect(record.sourceDigest).toBe((await expectedQualification()).sourceDigest);
    const clearing = installedCli(buildCaseArgs(out));
    expect((JSON.parse(clearing.stdout) as { verdict: string }).verdict).toBe('BUILD');
  });

  it('the docs/library.md example runs from a plain .mjs file and prints what the document says', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/library.md'), 'utf8');
    const script = path.join(installed.dir, 'example.mjs');
    writeFileSync(script, fencedAfter(doc, '<!-- library-example:start -->'));
    const run = node(script, [EXAMPLES]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(fencedAfter(doc, '<!-- library-example:end -->').replace('ctxray 0.1.0', `ctxray ${VERSION}`));
  });

  it('the library\'s analyze (streamed and as bytes), dupes and clearing records equal the installed CLI\'s output', () => {
    const script = path.join(installed.dir, 'records.mjs');
    writeFileSync(
      script,
      [
        "import { createReadStream, readFileSync, readdirSync } from 'node:fs';",
        "import path from 'node:path';",
        "import { analyze, dupes, clearing } from 'ctxray';",
        'const [claude, openai, reread, dir] = process.argv.slice(2);',
        'const streamed = await analyze([claude, openai].map((log) => ({ name: path.basename(log), content: createReadStream(log) })));',
        'const bytes = await analyze([claude, openai].map((log) => ({ name: path.basename(log), content: new Uint8Array(readFileSync(log)) })));',
        'const duplicate = await dupes(readFileSync(reread, \'utf8\'));',
        "const journals = readdirSync(path.join(dir, 'journals')).sort().map((name) => createReadStream(path.join(dir, 'journals', name)));",
        "const json = (name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8'));",
        "const verdict = await clearing({ journals, sidecar: readFileSync(path.join(dir, 'sidecar.sqlite')), routes: json('routes.json'), qualification: readFileSync(path.join(dir, 'qualification.json')), agentConfig: json('agent-config.json'), appAllowlist: readFileSync(path.join(dir, 'app-allowlist.json'), 'utf8') });",
        'process.stdout.write(JSON.stringify({ streamed, bytes, duplicate, verdict }));',
        '',
      ].join('\n'),
    );
    const run = node(script, [...ANALYZED, DUPES_ARGS[1]!, BUILD_CASE]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const records = JSON.parse(run.stdout) as Record<'streamed' | 'bytes' | 'duplicate' | 'verdict', unknown>;
    const analyzed = JSON.parse(installedCli(ANALYZE_ARGS).stdout) as unknown;
    expect(records.streamed).toEqual(analyzed);
    expect(records.bytes).toEqual(analyzed);
    expect(records.duplicate).toEqual(JSON.parse(installedCli(DUPES_ARGS).stdout));
    expect(records.verdict).toEqual(JSON.parse(installedCli(buildCaseArgs()).stdout));
  });

  it('its type declarations check a strict TypeScript consumer (nodenext resolution, no skipLibCheck)', () => {
    const consumer = path.join(installed.dir, 'consumer.mts');
    writeFileSync(
      consumer,
      [
        "import { analyze, clearing, dupes, type AnalysisRecord, type ClearingRecord, type DupesRecord } from 'ctxray';",
        "const record: AnalysisRecord = await analyze('{}', { format: 'anthropic', model: 'claude-sonnet-4-5', limits: { maxRecords: 2_000_000 } });",
        'const duplicate: DupesRecord = await dupes(new Uint8Array());',
        'const verdict: ClearingRecord = await clearing({ journals: [], sidecar: new Uint8Array(), routes: {}, qualification: {} });',
        "const wrong: number = record.generatedBy;",
        'console.log(record.requests.length, duplicate.result, verdict.verdict, wrong);',
        '',
      ].join('\n'),
    );
    // The checkout's TypeScript and Node types: the install itself has neither, as a user's runtime need not.
    const tsc = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--typeRoots', path.join(ROOT, 'node_modules/@types'), '--types', 'node', consumer],
      { cwd: installed.dir, encoding: 'utf8', timeout: RUN_TIMEOUT },
    );
    // Exactly the one planted error: the declarations themselves are clean and precise enough to catch it.
    expect(tsc.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^consumer\.mts\(5,7\): error TS2322: Type 'string' is not assignable to type 'number'\.$/)]);
  });

  it('refuses deep imports of the internals and bad content with a clear error', () => {
    const script = path.join(installed.dir, 'refused.mjs');
    writeFileSync(
      script,
      [
        "const deep = await import('ctxray/lib/core/analysis/analyze.js').then(() => 'imported', (error) => error.code);",
        "const { analyze, dupes } = await import('ctxray');",
        'const bad = await analyze(42).then(() => "analyzed", (error) => error.message);',
        "const refused = await dupes('not json at all');",
        'process.stdout.write(JSON.stringify({ deep, bad, refused: refused.result }));',
        '',
      ].join('\n'),
    );
    const run = node(script);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      bad: 'ctxray: content must be a Uint8Array, a string, a ReadableStream or an async iterable of chunks',
      refused: 'unknown',
    });
  });
});
