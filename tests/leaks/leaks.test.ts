// ONE harness for "nothing leaks" and "nothing lost": markers are planted in every text-bearing field of every
// input format (synthetic inputs covering each field, and the real fixtures read from ../shared/fixtures/real),
// in the file names and in the directory path; then the real CLI is spawned for every command and output that
// promises to carry no content, and each output is searched for a marker or the path. Every input is hashed
// before and after every run: reading never modifies an input, and no run leaves a file it was not asked for.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSidecar } from '../../src/core/clearing/sidecar-writer.ts';
import { REAL_FIXTURES, realFixturesPresent, REPO_ROOT } from '../fuzz/corpus.ts';
import { MARKER_PREFIX, Planter } from './plant.ts';
import { agentConfigFile, anthropicBody, appAllowlistFile, dupesFiles, piJournal, requestLogFiles, routesFile } from './inputs.ts';

const BIN = path.join(REPO_ROOT, 'bin/ctxray.mjs');

interface Run {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}

function spawnCli(args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 240_000, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ args, code, stdout, stderr });
    });
  });
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else out.push(full);
  }
  return out.sort();
}

/** Markers planted in file names (not content): the terminal summary may name the files the user gave it. */
const FILE_NAME_MARKER = `${MARKER_PREFIX}n`;

/**
 * What an output may not hold: a marker (case-insensitively) or the planted directory. `names: 'allowed'` is for
 * the human terminal summary, which may list the input file names as given (but no content).
 */
function leaks(output: string, dir: string, names: 'refused' | 'allowed' = 'refused'): string[] {
  const found: string[] = [];
  const lower = output.toLowerCase();
  let at = lower.indexOf(MARKER_PREFIX);
  while (at !== -1 && found.length < 5) {
    if (names === 'refused' || !lower.startsWith(FILE_NAME_MARKER, at)) found.push(output.slice(Math.max(0, at - 30), at + 50));
    at = lower.indexOf(MARKER_PREFIX, at + 1);
  }
  if (names === 'refused' && (output.includes(dir) || output.includes(path.basename(dir)))) found.push('(the input directory path)');
  return found;
}

/**
 * The analysis record names files in one place only, sessions[].file, as the path relative to the folder given
 * (the contract): those names are checked to be relative and then taken out before the scan for markers.
 */
function withoutSessionFiles(output: string): string {
  let record: unknown;
  try {
    record = JSON.parse(output);
  } catch {
    return output;
  }
  const sessions = (record as { sessions?: { file: string }[] } | null)?.sessions;
  if (!Array.isArray(sessions)) return output;
  for (const row of sessions) {
    expect(path.isAbsolute(row.file), row.file).toBe(false);
    row.file = '';
  }
  return JSON.stringify(record);
}

let dir = '';
const inputs: string[] = [];
const hashes = new Map<string, string>();
const runs: Run[] = [];
/** Output files the runs were told to write, with the run that wrote them. */
const outputs = new Map<string, string>();
let htmlSupported = false;

function write(relative: string, data: string | Uint8Array): string {
  const full = path.join(dir, relative);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, data);
  inputs.push(full);
  return full;
}

function realFiles(under: string): string[] {
  const root = path.join(REAL_FIXTURES, under);
  if (!fs.existsSync(root)) return [];
  return listFiles(root).filter((f) => /\.jsonl?$/.test(f) && !f.includes('.usage.'));
}

/** Every input unchanged, and nothing in the directory but the inputs and the outputs asked for. */
function checkNothingLost(after: string): void {
  for (const [file, hash] of hashes) expect(sha256(file), `${path.relative(dir, file)} changed after ${after}`).toBe(hash);
  const expected = new Set([...inputs, ...outputs.keys()]);
  const stray = listFiles(dir).filter((f) => !expected.has(f));
  expect(stray.map((f) => path.relative(dir, f)), `files left behind by ${after}`).toEqual([]);
}

async function runAll(batch: { args: string[]; out?: string[] }[]): Promise<void> {
  // Two at a time: the machine is shared.
  for (let i = 0; i < batch.length; i += 2) {
    const pair = batch.slice(i, i + 2);
    for (const job of pair) for (const out of job.out ?? []) outputs.set(path.join(dir, out), job.args.join(' '));
    const done = await Promise.all(pair.map((job) => spawnCli(job.args, dir)));
    runs.push(...done);
    for (const run of done) checkNothingLost(`ctxray ${run.args.join(' ')}`);
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), `ctxray-${MARKER_PREFIX}dirq-`));
  const planter = new Planter('s');
  const name = (base: string) => `${MARKER_PREFIX}n${base.replace(/[^a-z0-9]/gi, '')}q-${base}`;

  const logs = Object.entries(requestLogFiles()).map(([file, text]) => path.relative(dir, write(`logs/${name(file)}`, planter.text(text))));
  // Broken records whose unparseable part is planted text: error messages must locate, not quote.
  const broken = [
    planter.text(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'synthetic valid line' }] })).trim(),
    `{"model":"gpt-4o","messages":[{"role":"user","content":"${planter.marker('synthetic unterminated')}`,
    `{"${planter.marker('synthetic key')}": ${planter.marker('bareword')}}`,
    `{"model":"gpt-4o","messages":[{"role":"user","content":"${planter.marker('synthetic extra bracket')}"}]]}`,
    `{"model":"gpt-4o","messages":[{"role":"user","content":"${planter.marker('synthetic bad escape')}\\q"}]}`,
    `${planter.marker('synthetic prose line')} not JSON at all`,
    `{"model":"gpt-4o","messages":${'['.repeat(600)}"${planter.marker('synthetic deep')}"${']'.repeat(600)}}`,
  ].join('\n');
  logs.push(path.relative(dir, write(`logs/${name('broken.jsonl')}`, `${broken}\n`)));
  // For the control run only: one conversation whose history is edited, so a content report quotes blocks.
  const edited = { ...anthropicBody, messages: [{ role: 'user', content: 'synthetic edited first message' }, ...anthropicBody.messages.slice(1)] };
  write(`control/${name('control.jsonl')}`, planter.text(`${JSON.stringify(anthropicBody)}\n${JSON.stringify(edited)}\n`));
  const dupes = Object.entries(dupesFiles()).map(([file, text]) => path.relative(dir, write(`dupes/${name(file)}`, planter.text(text))));

  const real = new Planter('r');
  const realRequests = ['anthropic-messages', 'openai-chat', 'openai-responses'].flatMap((f) => realFiles(f)).map((file) =>
    path.relative(dir, write(`real/${name(path.basename(file))}`, real.text(fs.readFileSync(file, 'utf8')))),
  );
  const realTranscripts = ['transcripts/claude-code', 'transcripts/codex'].flatMap((f) => realFiles(f)).map((file) =>
    path.relative(dir, write(`transcripts/${path.basename(file)}`, real.text(fs.readFileSync(file, 'utf8')))),
  );

  const journals = new Planter('j');
  write(`journals/${name('synthetic.jsonl')}`, journals.text(piJournal()));
  for (const file of realFiles('transcripts/pi')) write(`journals/${path.basename(file)}`, journals.text(fs.readFileSync(file, 'utf8')));
  const SQL = await initSqlJs();
  write(
    'clearing/tool-history.sqlite',
    buildSidecar(SQL, {
      rows: [
        { sessionId: journals.marker('synthetic-session-id'), runId: journals.marker('synthetic-run'), callId: journals.marker('synthetic-call-id'), state: 'finalized', text: journals.marker('synthetic file contents') },
        { sessionId: journals.marker('synthetic-session-2'), runId: journals.marker('r'), callId: journals.marker('c'), state: 'finalized', text: journals.marker('retained text'), redacted: 'credential' },
      ],
      policies: [{ sessionId: journals.marker('synthetic-session-id'), policy: 'keep_all' }],
      checkpoints: [{ sessionId: journals.marker('synthetic-session-id'), seq: 1, throughEntryId: journals.marker('e4'), atMs: 1 }],
    }),
  );
  write('clearing/routes.json', JSON.stringify(planter.value(routesFile())));
  write('clearing/agent-config.json', JSON.stringify(planter.value(agentConfigFile)));
  write('clearing/app-allowlist.json', JSON.stringify(planter.value(appAllowlistFile)));
  for (const file of inputs) hashes.set(file, sha256(file));
  fs.mkdirSync(path.join(dir, 'out'));

  const help = await spawnCli(['analyze', '--help'], dir);
  htmlSupported = help.stdout.includes('--html');

  // qualify first: its record is the clearing run's --qualification input.
  await runAll([{ args: ['qualify', '--out', 'out/qualification.json'], out: ['out/qualification.json'] }]);
  const qualification = path.join(dir, 'out/qualification.json');
  if (!fs.existsSync(qualification)) {
    outputs.delete(qualification);
    write('out/qualification.json', '{"schema":"ctxray.qualification/1","fixtures":"synthetic"}');
  }
  hashes.set(qualification, sha256(qualification));
  if (!inputs.includes(qualification)) inputs.push(qualification);
  const clearingArgs = [
    'clearing', '--journals', 'journals', '--sidecar', 'clearing/tool-history.sqlite', '--routes', 'clearing/routes.json',
    '--qualification', 'out/qualification.json', '--agent-config', 'clearing/agent-config.json', '--app-allowlist', 'clearing/app-allowlist.json',
  ];
  const html = (file: string) => (htmlSupported ? ['--html', file] : []);
  // Batch output files hold usage for the batch input files' requests: analyzed together, and alone by dupes.
  const batchOutputs = logs.filter((file) => /batch-(results|output)/.test(file));
  await runAll([
    { args: ['analyze', ...logs, '--json', 'out/logs.json', ...html('out/logs.html')], out: ['out/logs.json', ...(htmlSupported ? ['out/logs.html'] : [])] },
    { args: ['analyze', ...logs, '--json', '-'] },
    ...(realRequests.length > 0 ? [{ args: ['analyze', ...realRequests, '--json', 'out/real.json', ...html('out/real.html')], out: ['out/real.json', ...(htmlSupported ? ['out/real.html'] : [])] }] : []),
    ...(realTranscripts.length > 0 ? [{ args: ['analyze', ...realTranscripts, '--json', '-'] }] : []),
    // The planted pi journals as transcripts too (a folder input).
    { args: ['analyze', 'journals', '--json', '-'] },
    ...dupes.flatMap((file) => [{ args: ['dupes', file] }, { args: ['dupes', file, '--markdown'] }]),
    ...batchOutputs.map((file) => ({ args: ['dupes', file] })),
    { args: ['dupes', logs[0]!] },
    { args: ['dupes', logs[0]!, '--markdown', '--out', 'out/dupes.md'], out: ['out/dupes.md'] },
    ...(realRequests.length > 0 ? [{ args: ['dupes', realRequests[0]!, '--out', 'out/dupes-real.json'], out: ['out/dupes-real.json'] }] : []),
    { args: clearingArgs },
    { args: [...clearingArgs, '--out', 'out/clearing.json'], out: ['out/clearing.json'] },
  ]);
}, 900_000);

afterAll(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

describe(`nothing leaks: planted markers never reach a content-free output${realFixturesPresent ? '' : ' (real fixtures absent: synthetic inputs only)'}`, () => {
  it('every command ran to a documented exit status without a stack trace', () => {
    expect(runs.length).toBeGreaterThan(10);
    for (const run of runs) {
      const command = run.args[0]!;
      const allowed = command === 'dupes' ? [0, 1, 2] : command === 'clearing' || command === 'qualify' ? [0, 2] : [0];
      expect(allowed, `ctxray ${run.args.join(' ')} exited ${run.code}: ${run.stderr.slice(0, 300)}`).toContain(run.code);
      expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
    }
  });

  it('analyze --json (file and stdout), --html without --content, and the terminal summary without --content', () => {
    const checked = runs.filter((r) => r.args[0] === 'analyze');
    expect(checked.some((r) => !r.args.includes('-'))).toBe(true);
    for (const run of checked) {
      const machineReadable = run.args.includes('-');
      const output = machineReadable ? withoutSessionFiles(run.stdout) : run.stdout;
      expect(leaks(output, dir, machineReadable ? 'refused' : 'allowed'), `stdout of ctxray ${run.args.join(' ')}`).toEqual([]);
    }
    const files = [...outputs.keys()].filter((f) => /\/out\/(logs|real)\.(json|html)$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(1);
    for (const file of files) expect(leaks(withoutSessionFiles(fs.readFileSync(file, 'utf8')), dir), path.basename(file)).toEqual([]);
    // The broken records were reported (located, and without quoting them).
    const record = JSON.parse(fs.readFileSync(path.join(dir, 'out/logs.json'), 'utf8')) as { errors: { line: number }[] };
    expect(record.errors.length).toBeGreaterThanOrEqual(6);
  });

  it('the --html report was written (when this build has --html)', () => {
    if (!htmlSupported) return;
    expect(fs.existsSync(path.join(dir, 'out/logs.html'))).toBe(true);
  });

  it('dupes JSON and markdown, on stdout and through --out', () => {
    for (const run of runs.filter((r) => r.args[0] === 'dupes')) expect(leaks(run.stdout + run.stderr, dir), `ctxray ${run.args.join(' ')}`).toEqual([]);
    for (const file of ['out/dupes.md', 'out/dupes-real.json'].map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f))) {
      expect(leaks(fs.readFileSync(file, 'utf8'), dir), path.basename(file)).toEqual([]);
    }
  });

  it('clearing: record on stdout and through --out, and every stderr line', () => {
    const clearing = runs.filter((r) => r.args[0] === 'clearing');
    expect(clearing).toHaveLength(2);
    for (const run of clearing) expect(leaks(run.stdout + run.stderr, dir), `ctxray ${run.args.join(' ')}`).toEqual([]);
    expect(leaks(fs.readFileSync(path.join(dir, 'out/clearing.json'), 'utf8'), dir)).toEqual([]);
    const record = JSON.parse(fs.readFileSync(path.join(dir, 'out/clearing.json'), 'utf8')) as { journals: { selected: number; contributing: number } };
    expect(record.journals.selected).toBeGreaterThanOrEqual(1);
    // The planted journals were replayed, so the record holds computed evidence, not only refusals.
    expect(record.journals.contributing).toBeGreaterThanOrEqual(1);
  });

  it('qualify: its record names no path of the machine it ran on', () => {
    const run = runs.find((r) => r.args[0] === 'qualify')!;
    expect(leaks(run.stdout + run.stderr, dir)).toEqual([]);
    const file = path.join(dir, 'out/qualification.json');
    expect(leaks(fs.readFileSync(file, 'utf8'), dir)).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(os.homedir());
  });

  it('the planting reached the readers: an output that DOES carry content shows the content markers', async () => {
    // Control: the --html report with --content quotes block excerpts in its prefix diffs. Without this, a reader
    // that silently dropped every planted field would pass every check above. File-name markers do not count.
    const control = path.relative(dir, [...inputs].find((f) => f.endsWith('control.jsonl'))!);
    outputs.set(path.join(dir, 'out/control.html'), 'control');
    const run = await spawnCli(['analyze', control, '--html', 'out/control.html', '--content'], dir);
    expect(run.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'out/control.html'), 'utf8').toLowerCase()).toContain(`${MARKER_PREFIX}s`);
    checkNothingLost('ctxray analyze --html --content');
  });
});

describe('nothing lost: inputs are never modified or replaced', () => {
  it('every input hashes the same after every run, and no run left a stray file', () => {
    expect(hashes.size).toBeGreaterThan(10);
    checkNothingLost('all runs');
  });

  it('an --out or --json naming an input or an existing file is refused and the file is unchanged', async () => {
    const input = path.relative(dir, [...hashes.keys()].find((f) => f.endsWith('native.json'))!);
    const existing = 'out/clearing.json';
    const before = sha256(path.join(dir, existing));
    const log = path.relative(dir, [...hashes.keys()].find((f) => f.endsWith('bare.jsonl'))!);
    const attempts = [];
    for (const args of [
      ['analyze', log, '--json', log],
      ['analyze', log, '--json', existing],
      ['analyze', log, '--json', 'out/new.json', '--html', log],
      ['dupes', input, '--out', input],
      ['dupes', input, '--out', existing],
      ['qualify', '--out', existing],
      ['clearing', '--journals', 'journals', '--sidecar', 'clearing/tool-history.sqlite', '--routes', 'clearing/routes.json', '--qualification', 'out/qualification.json', '--out', 'clearing/routes.json'],
    ]) attempts.push(await spawnCli(args, dir));
    for (const attempt of attempts) expect(attempt.code, `ctxray ${attempt.args.join(' ')}`).not.toBe(0);
    expect(sha256(path.join(dir, existing))).toBe(before);
    checkNothingLost('refused overwrites');
  });
});
