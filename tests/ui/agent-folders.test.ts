// The start page's agent folders (src/ui/agent-folders.ts): the user's system told from what the browser says, and
// the folders laid out from the core table the CLI searches (src/core/agents/locations.ts), not a copy of it.
import { describe, expect, it } from 'vitest';
import { AGENTS, agentFoldersByPlatform } from '../../src/core/agents/locations.ts';
import { foldersBySystem, PICKER_HINTS, platformOf } from '../../src/ui/agent-folders.ts';

const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ANDROID = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('the user\'s system', () => {
  it('reads User-Agent Client Hints first', () => {
    expect(platformOf({ uaPlatform: 'macOS', userAgent: LINUX, platform: 'Linux x86_64' })).toBe('darwin');
    expect(platformOf({ uaPlatform: 'Windows', userAgent: MAC })).toBe('win32');
    expect(platformOf({ uaPlatform: 'Linux', userAgent: WINDOWS })).toBe('linux');
  });
  it('falls back to the user agent string, then navigator.platform', () => {
    expect(platformOf({ uaPlatform: '', userAgent: MAC, platform: 'Linux x86_64' })).toBe('darwin');
    expect(platformOf({ userAgent: WINDOWS })).toBe('win32');
    expect(platformOf({ userAgent: LINUX })).toBe('linux');
    expect(platformOf({ userAgent: 'SomeBrowser/1.0', platform: 'MacIntel' })).toBe('darwin');
    expect(platformOf({ userAgent: 'SomeBrowser/1.0', platform: 'Win32' })).toBe('win32');
  });
  it('is null for a phone or an unknown system', () => {
    expect(platformOf({ uaPlatform: 'Android', userAgent: ANDROID, platform: 'Linux armv8l' })).toBeNull();
    expect(platformOf({ userAgent: IPHONE, platform: 'iPhone' })).toBeNull();
    expect(platformOf({})).toBeNull();
    expect(platformOf({ userAgent: 'SomeBrowser/1.0' })).toBeNull();
  });
});

describe('the folders by system', () => {
  it('puts the user\'s system first, the others in the table\'s order', () => {
    expect(foldersBySystem('darwin').map((s) => s.platform)).toEqual(['darwin', 'linux', 'win32']);
    expect(foldersBySystem('win32').map((s) => s.platform)).toEqual(['win32', 'linux', 'darwin']);
    expect(foldersBySystem(null).map((s) => s.platform)).toEqual(['linux', 'darwin', 'win32']);
  });
  it('lists every agent on every system, with exactly the core table\'s folders', () => {
    const table = agentFoldersByPlatform();
    for (const system of foldersBySystem('linux')) {
      expect(system.agents.map((row) => row.agent.id)).toEqual(AGENTS.map((agent) => agent.id));
      const core = table.find((t) => t.platform === system.platform)!;
      expect(system.label).toBe(core.label);
      expect(system.agents.flatMap((row) => row.folders)).toEqual(core.folders);
      expect(PICKER_HINTS[system.platform]).not.toBe('');
    }
  });
  it('writes each system\'s paths its own way', () => {
    const [linux, darwin, win32] = foldersBySystem(null).map((s) => s.agents.flatMap((row) => row.folders.map((f) => f.path)));
    expect(linux).toContain('~/.claude/projects');
    expect(darwin?.some((p) => p.startsWith('~/Library/Application Support/Code/User/globalStorage/'))).toBe(true);
    expect(win32).toContain('%USERPROFILE%\\.claude\\projects');
    expect(win32?.some((p) => p.startsWith('%APPDATA%\\Code\\User\\globalStorage\\'))).toBe(true);
  });
});
