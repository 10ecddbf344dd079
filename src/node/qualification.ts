// What a current qualification record must name: the installed pi-ai version and the digest of the exact
// qualification sources. The web app cannot read files, so scripts/qualification-expected.ts bakes these two
// values into src/core/clearing/qualification-expected.ts (a test fails when that copy is stale).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkQualification, type ExpectedQualification } from '../core/clearing/qualification-record.ts';
import type { QualificationStatus } from '../core/clearing/analyze.ts';
import { QUALIFICATION_SOURCE_DIGEST } from '../core/clearing/qualification-expected.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The checkout this module runs from (src/node/ → the root), where the named sources are. */
const REPO_ROOT = path.resolve(HERE, '../..');
/**
 * Run from the TypeScript sources (a checkout) the digest is taken of the sources beside this module. The built
 * CLI (lib/, the installed package) ships no sources: it uses the digest baked into the core, which `npm run
 * build` refuses to build with when it is stale, so both name the digest of the sources the build compiled.
 */
const FROM_SOURCES = import.meta.url.endsWith('.ts');

/** The sources whose bytes define a qualification, in digest order (paths as named inside the digest). */
export const QUALIFICATION_SOURCES = [
  'src/cli/qualify/fixtures.ts',
  'src/cli/qualify/diff.ts',
  'src/cli/qualify/reference.ts',
] as const;

const PI_AI_PACKAGE = '@mariozechner/pi-ai';

/**
 * SHA-256 over each source in order as: the line "ctxray-qualification-source <name>\n", the byte length in
 * decimal and "\n", then the file's exact bytes. The name and length separators make the framing unambiguous.
 */
export function sourceDigestOf(files: readonly { name: string; bytes: Uint8Array }[]): string {
  const hash = createHash('sha256');
  for (const { name, bytes } of files) {
    hash.update(`ctxray-qualification-source ${name}\n${bytes.byteLength}\n`, 'utf8');
    hash.update(bytes);
  }
  return hash.digest('hex');
}

/** Absolute paths of the qualification sources (this command's inputs: --out must never replace one); none when built. */
export function qualificationSourcePaths(): string[] {
  if (!FROM_SOURCES) return [];
  return QUALIFICATION_SOURCES.map((name) => path.join(REPO_ROOT, name));
}

export async function qualificationSourceDigest(): Promise<string> {
  if (!FROM_SOURCES) return QUALIFICATION_SOURCE_DIGEST;
  const paths = qualificationSourcePaths();
  const files = await Promise.all(
    QUALIFICATION_SOURCES.map(async (name, i) => ({ name, bytes: new Uint8Array(await readFile(paths[i]!)) })),
  );
  return sourceDigestOf(files);
}

/** Reads the version of the pi-ai package Node would resolve from here (walking up node_modules like Node does). */
export async function installedPiAiVersion(): Promise<string> {
  let dir = HERE;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', ...PI_AI_PACKAGE.split('/'), 'package.json');
    const text = await readFile(candidate, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      const parsed = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (parsed.name !== PI_AI_PACKAGE || typeof parsed.version !== 'string') {
        throw new Error(`${candidate}: not a ${PI_AI_PACKAGE} package.json with a version`);
      }
      return parsed.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${PI_AI_PACKAGE} is not installed (no node_modules above ${HERE})`);
    dir = parent;
  }
}

export async function expectedQualification(): Promise<ExpectedQualification> {
  const [piAiVersion, sourceDigest] = await Promise.all([installedPiAiVersion(), qualificationSourceDigest()]);
  return { piAiVersion, sourceDigest };
}

/**
 * A parsed qualification record checked against the installed pi-ai and these sources. Missing or stale is not
 * invalid input: the clearing record then says PAYLOAD_UNQUALIFIED per API.
 */
export async function installedQualificationStatus(record: unknown): Promise<QualificationStatus> {
  try {
    return checkQualification(record, await expectedQualification());
  } catch {
    return { ok: false, code: 'PAYLOAD_UNQUALIFIED', why: 'installed pi-ai or qualification sources not found' };
  }
}
