// The CSP in public/_headers must be the one the build puts in index.html, plus frame-ancestors (header-only).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSP_DIRECTIVES, CSP_HEADER, CSP_META } from '../../src/ui/csp.ts';

const headersFile = readFileSync(path.resolve(__dirname, '../../public/_headers'), 'utf8');

describe('content security policy', () => {
  it('public/_headers carries exactly the header policy', () => {
    const line = headersFile.split('\n').find((l) => l.trim().startsWith('Content-Security-Policy:'));
    expect(line?.trim().slice('Content-Security-Policy:'.length).trim()).toBe(CSP_HEADER);
  });
  it('allows connections to its own origin only and forbids framing, plugins, base and form targets', () => {
    expect(CSP_DIRECTIVES).toContain("connect-src 'self'");
    expect(CSP_DIRECTIVES).toContain("object-src 'none'");
    expect(CSP_DIRECTIVES).toContain("base-uri 'none'");
    expect(CSP_DIRECTIVES).toContain("form-action 'none'");
    expect(CSP_HEADER).toContain("frame-ancestors 'none'");
    expect(CSP_META).not.toContain('frame-ancestors');
  });
  it('never allows inline script, eval or another host anywhere', () => {
    expect(CSP_HEADER).not.toMatch(/unsafe-inline|'unsafe-eval'|https?:|\*/);
  });
});
