// `ctxray qualify [--out <file>]`: offline payload qualification with the installed @mariozechner/pi-ai builders.
// Prints (or exclusively writes) the ctxray.qualification/1 record. Exit 0 every API qualified, 1 bad arguments,
// refused output or a failed run, 2 the record was produced but some API is unqualified.
import type { CliIO, Command } from '../io.ts';
import { writeOutputSafely } from '../fs/safe-output.ts';
import { qualificationSourcePaths } from '../../node/qualification.ts';
import { runQualification } from '../qualify/run.ts';

const HELP = `usage: ctxray qualify [--out <file>]

Builds complete request payloads for anthropic-messages, openai-responses, openai-codex-responses and
openai-completions from SYNTHETIC fixture conversations with the installed @mariozechner/pi-ai builders
(captured through onPayload; nothing is sent, no key is used, network access is refused), once as is and
once with the targeted earlier tool results cleared, and diffs them. Only those result-text leaves may change.

  --out <file>  write the record to a NEW file (never overwrites; see docs/file-safety.md)
  -h, --help    show this help

Exit status: 0 all APIs qualified, 1 bad arguments or failure, 2 some API unqualified.
`;

const MAX_FINDINGS_SHOWN = 20;

type Parsed = { help: true } | { help: false; out?: string } | { error: string };

function parseArgs(argv: string[]): Parsed {
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return { help: true };
    if (arg === '--out' || arg.startsWith('--out=')) {
      if (out !== undefined) return { error: '--out given twice' };
      const value = arg === '--out' ? argv[++i] : arg.slice('--out='.length);
      if (value === undefined || value === '') return { error: '--out needs a file name' };
      out = value;
      continue;
    }
    return { error: `unknown argument ${JSON.stringify(arg)}` };
  }
  return out === undefined ? { help: false } : { help: false, out };
}

export const qualifyCommand: Command = async (argv: string[], io: CliIO) => {
  const parsed = parseArgs(argv);
  if ('error' in parsed) {
    io.stderr(`ctxray qualify: ${parsed.error}\n\n${HELP}`);
    return 1;
  }
  if (parsed.help) {
    io.stdout(HELP);
    return 0;
  }

  let run;
  try {
    run = await runQualification();
  } catch (error) {
    io.stderr(`ctxray qualify: qualification could not run: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const { record, findings } = run;
  // Diagnostics for a failed qualification (e.g. after a pi-ai upgrade): structural locations only, to stderr.
  const shown = findings.slice(0, MAX_FINDINGS_SHOWN);
  for (const finding of shown) {
    io.stderr(`unintended difference: ${finding.api} ${finding.fixture} ${finding.kind} at ${finding.location}\n`);
  }
  if (findings.length > shown.length) io.stderr(`... and ${findings.length - shown.length} more unintended differences\n`);
  const json = JSON.stringify(record, null, 2) + '\n';
  if (parsed.out === undefined) {
    io.stdout(json);
  } else {
    // The qualification sources are this command's inputs: the record must never replace one of them.
    const written = writeOutputSafely(parsed.out, qualificationSourcePaths(), json, { cwd: io.cwd });
    if (!written.ok) {
      io.stderr(`ctxray qualify: ${written.code}: ${written.message}\n`);
      return 1;
    }
    for (const entry of record.apis) {
      io.stdout(`${entry.api.padEnd(24)} ${entry.result} (${entry.cases} cases, ${entry.changedLeaves} leaves cleared, ${entry.unintendedDifferences} unintended differences)\n`);
    }
    io.stdout(`pi-ai ${record.piAiVersion}; record written\n`);
  }
  return record.apis.every((entry) => entry.result === 'qualified') ? 0 : 2;
};
