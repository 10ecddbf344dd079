// What the README tells a host to send is the app's own policy: the nginx snippet's headers equal
// public/_headers (itself checked against src/ui/csp.ts), and the Pages workflow publishes the relative build.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSP_HEADER } from '../../src/ui/csp.ts';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** `Name: value` lines of the `/*` block of a _headers file. */
function headersFile(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/^\s+([A-Za-z-]+):\s*(.+)$/gm)].map((match) => [match[1]!, match[2]!.trim()]));
}

describe('hosting instructions', () => {
  it('the README\'s nginx snippet sends exactly the headers of public/_headers, CSP included', () => {
    const nginx = /```nginx\n([\s\S]*?)```/.exec(read('README.md'))?.[1] ?? '';
    const sent = Object.fromEntries(
      [...nginx.matchAll(/add_header ([A-Za-z-]+) (?:"([^"]*)"|(\S+)) always;/g)].map((match) => [match[1]!, match[2] ?? match[3]!]),
    );
    expect(sent).toEqual(headersFile(read('public/_headers')));
    expect(sent['Content-Security-Policy']).toBe(CSP_HEADER);
  });

  it('the Pages workflow builds the app and uploads dist/ for deploy-pages, and the build uses relative URLs', () => {
    const workflow = read('.github/workflows/pages.yml');
    expect(workflow).toMatch(/- run: npx vite build\n/);
    expect(workflow).toMatch(/uses: actions\/upload-pages-artifact@v\d+\n\s+with:\n\s+path: dist\n/);
    expect(workflow).toMatch(/uses: actions\/deploy-pages@v\d+/);
    expect(workflow).toMatch(/pages: write/);
    expect(workflow).toMatch(/id-token: write/);
    expect(read('vite.config.ts')).toMatch(/base: '\.\/'/);
  });
});
