import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedQualification, QUALIFICATION_SOURCES, sourceDigestOf } from '../../src/node/qualification.ts';
import { QUALIFICATION_EXPECTED, QUALIFICATION_PI_AI_VERSION, QUALIFICATION_SOURCE_DIGEST } from '../../src/core/clearing/qualification-expected.ts';
import { renderExpectedModule } from '../../scripts/qualification-expected.ts';

const ROOT = path.resolve(__dirname, '../..');

describe('expectedQualification', () => {
  it('names the installed pi-ai version', async () => {
    const installed = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@mariozechner/pi-ai/package.json'), 'utf8')) as { version: string };
    expect((await expectedQualification()).piAiVersion).toBe(installed.version);
  });

  it('digests fixtures, diff and reference sources in that order with name and length framing', async () => {
    expect(QUALIFICATION_SOURCES).toEqual(['src/cli/qualify/fixtures.ts', 'src/cli/qualify/diff.ts', 'src/cli/qualify/reference.ts']);
    const hash = createHash('sha256');
    for (const name of QUALIFICATION_SOURCES) {
      const bytes = readFileSync(path.join(ROOT, name));
      hash.update(Buffer.from(`ctxray-qualification-source ${name}\n${bytes.length}\n`));
      hash.update(bytes);
    }
    expect((await expectedQualification()).sourceDigest).toBe(hash.digest('hex'));
  });

  it('changes the digest when one byte moves between files (the framing is unambiguous)', () => {
    const enc = new TextEncoder();
    const a = sourceDigestOf([
      { name: 'x', bytes: enc.encode('ab') },
      { name: 'y', bytes: enc.encode('c') },
    ]);
    const b = sourceDigestOf([
      { name: 'x', bytes: enc.encode('a') },
      { name: 'y', bytes: enc.encode('bc') },
    ]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
    // Known answer, worked out with sha256 over "ctxray-qualification-source x\n2\nab".
    expect(sourceDigestOf([{ name: 'x', bytes: enc.encode('ab') }])).toBe(
      createHash('sha256').update('ctxray-qualification-source x\n2\nab').digest('hex'),
    );
  });
});

describe('generated src/core/clearing/qualification-expected.ts', () => {
  it('is current (run `node --import tsx scripts/qualification-expected.ts` when this fails)', async () => {
    const expected = await expectedQualification();
    expect({ piAiVersion: QUALIFICATION_PI_AI_VERSION, sourceDigest: QUALIFICATION_SOURCE_DIGEST }).toEqual(expected);
    expect(QUALIFICATION_EXPECTED).toEqual(expected);
    expect(readFileSync(path.join(ROOT, 'src/core/clearing/qualification-expected.ts'), 'utf8')).toBe(renderExpectedModule(expected));
  });
});
