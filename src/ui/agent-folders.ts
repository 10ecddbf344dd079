// The start page's "where the logs are": for each agent ctxray knows, the folders it writes its sessions to on
// Linux, macOS and Windows — from the core table the CLI searches (src/core/agents/locations.ts,
// agentFoldersByPlatform), never a copy of it — with the user's own system first and the others behind a
// disclosure, each path copyable, how to reach a hidden folder in the picker, and the "Choose folder…" picker.
import './agent-folders.css';
import { AGENTS, agentFoldersByPlatform, type AgentFolder, type AgentInfo, type Platform } from '../core/agents/locations.ts';
import { el } from './dom.ts';

/** What the browser says about its system (navigator.userAgentData.platform, navigator.userAgent and .platform). */
export interface SystemHints {
  uaPlatform?: string | undefined;
  userAgent?: string | undefined;
  platform?: string | undefined;
}

/**
 * The user's system, or null for one the table has no folders for (a phone or tablet). User-Agent Client Hints
 * first; then the user agent string, which names the system even when reduced (and follows a user agent
 * override); navigator.platform last.
 */
export function platformOf(hints: SystemHints): Platform | null {
  const named = (text: string | undefined): Platform | null | undefined => {
    if (text === undefined || text.trim() === '') return undefined;
    if (/android|iphone|ipad|ipod|cros/i.test(text)) return null;
    if (/mac/i.test(text)) return 'darwin';
    if (/win/i.test(text)) return 'win32';
    if (/linux|x11|bsd/i.test(text)) return 'linux';
    return undefined;
  };
  for (const text of [hints.uaPlatform, hints.userAgent, hints.platform]) {
    const platform = named(text);
    if (platform !== undefined) return platform;
  }
  return null;
}

export function browserSystem(): Platform | null {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return platformOf({ uaPlatform: nav.userAgentData?.platform, userAgent: nav.userAgent, platform: nav.platform });
}

export interface PlatformFolders {
  platform: Platform;
  label: string;
  agents: { agent: AgentInfo; folders: AgentFolder[] }[];
}

/** The core table by system, then by agent in AGENTS order; `first` (the user's system) leads. */
export function foldersBySystem(first: Platform | null): PlatformFolders[] {
  const systems = agentFoldersByPlatform().map(({ platform, label, folders }) => ({
    platform,
    label,
    agents: AGENTS.map((agent) => ({ agent, folders: folders.filter((folder) => folder.agent === agent.id) })).filter((row) => row.folders.length > 0),
  }));
  return [...systems.filter((s) => s.platform === first), ...systems.filter((s) => s.platform !== first)];
}

/** How to reach a hidden folder (a dot folder, AppData) and paste a path in each system's folder picker. */
export const PICKER_HINTS: Record<Platform, string> = {
  linux: 'In the folder picker, Ctrl+H shows hidden folders such as ~/.claude, and Ctrl+L lets you type or paste a path (~ is your home folder).',
  darwin: 'In the folder picker, Cmd+Shift+. (period) shows hidden folders such as ~/.claude, and Cmd+Shift+G lets you type or paste a path (~ is your home folder).',
  win32: 'In the folder picker, paste a path into the address bar (Alt+D): it expands %USERPROFILE% and %APPDATA%, and AppData is hidden in a plain listing.',
};

/** Copies `text`; where the clipboard is not available, selects it for Ctrl+C / Cmd+C. */
function copyButton(text: string, code: HTMLElement): HTMLElement {
  // Named "Copy <path>": the visible word first, the path for a screen reader (the row shows it already).
  const shown = el('span', { text: 'Copy' });
  const button = el('button', { className: 'copy-path', attrs: { type: 'button' } }, [shown, el('span', { className: 'visually-hidden', text: ` ${text}` })]);
  const said = (label: string) => {
    shown.textContent = label;
    window.setTimeout(() => (shown.textContent = 'Copy'), 1500);
  };
  button.addEventListener('click', () => {
    const select = () => {
      window.getSelection()?.selectAllChildren(code);
      said('Selected');
    };
    if (navigator.clipboard === undefined) select();
    else navigator.clipboard.writeText(text).then(() => said('Copied'), select);
  });
  return button;
}

function pathItem(folder: AgentFolder): HTMLElement {
  const code = el('code', { className: 'agent-path', text: folder.path });
  return el('li', {}, [code, copyButton(folder.path, code)]);
}

/** An agent's folders: up to two in view (Claude Code's), else the first (VS Code's) and the other editors' behind "N more". */
function agentRow({ agent, folders }: PlatformFolders['agents'][number]): HTMLElement {
  const shown = folders.length <= 2 ? folders : folders.slice(0, 1);
  const more = folders.slice(shown.length);
  const notes = [
    agent.readable ? null : el('span', { className: 'badge', text: 'not read yet' }),
    folders.some((f) => f.path.includes('*')) ? el('span', { className: 'agent-note muted small', text: '* is one folder per project' }) : null,
  ];
  return el('tr', { attrs: { 'data-agent': agent.id } }, [
    el('th', { attrs: { scope: 'row' } }, [agent.name, ...notes.flatMap((n) => (n === null ? [] : [' ', n]))]),
    el('td', {}, [
      el('ul', { className: 'agent-paths' }, shown.map(pathItem)),
      more.length === 0 ? null : el('details', { className: 'agent-more' }, [el('summary', { text: `${more.length} more (other editors)` }), el('ul', { className: 'agent-paths' }, more.map(pathItem))]),
    ]),
  ]);
}

function systemBlock(system: PlatformFolders, yours: boolean): HTMLElement {
  const title = yours ? `On ${system.label} (this computer)` : `On ${system.label}`;
  return el('div', { className: 'agent-system', attrs: { id: `agent-folders-${system.platform}`, 'data-platform': system.platform } }, [
    el('h3', { text: title, attrs: { id: `agent-folders-${system.platform}-title` } }),
    el('p', { className: 'muted small', text: PICKER_HINTS[system.platform] }),
    el('div', { className: 'table-scroll' }, [
      el('table', { className: 'data agent-table', attrs: { 'aria-labelledby': `agent-folders-${system.platform}-title` } }, [
        el('thead', {}, [el('tr', {}, [el('th', { text: 'Agent', attrs: { scope: 'col' } }), el('th', { text: 'Folder', attrs: { scope: 'col' } })])]),
        el('tbody', {}, system.agents.map(agentRow)),
      ]),
    ]),
  ]);
}

/** A hidden folder picker and the button that opens it; `chosen` gets the files of the folder picked. */
export function folderPicker(chosen: (files: File[]) => void): { button: HTMLButtonElement; input: HTMLInputElement } {
  const input = el('input', { attrs: { type: 'file', webkitdirectory: '', hidden: '', id: 'folder-input', 'aria-label': 'Choose a folder of sessions' } });
  input.addEventListener('change', () => {
    const files = [...(input.files ?? [])];
    input.value = '';
    if (files.length > 0) chosen(files);
  });
  const button = el('button', { text: 'Choose folder…', attrs: { type: 'button', id: 'choose-folder' }, on: { click: () => input.click() } });
  return { button, input };
}

/** The section: the user's system open, the others in one disclosure (all in it, open, when it is not known). */
export function renderAgentFolders(system: Platform | null): HTMLElement {
  const [first, ...rest] = foldersBySystem(system);
  const known = system !== null && first !== undefined;
  const others = known ? rest : foldersBySystem(null);
  const disclosure = el('details', { className: 'agent-others', attrs: known ? {} : { open: '' } }, [
    el('summary', { text: known ? `Other systems: ${others.map((s) => s.label).join(', ')}` : `Every system: ${others.map((s) => s.label).join(', ')}` }),
    ...others.map((s) => systemBlock(s, false)),
  ]);
  return el('section', { className: 'start-folders', attrs: { id: 'agent-folders', 'aria-labelledby': 'agent-folders-title' } }, [
    el('h2', { className: 'section-title', text: 'Where the agents keep their logs', attrs: { id: 'agent-folders-title' } }),
    el('p', { className: 'muted' }, [
      'Open a whole folder with ',
      el('strong', { text: 'Choose folder…' }),
      ' (or drop it here) for a table of its sessions, or one session file on its own. Your browser may ask to "upload" the folder: its files are read in this tab and sent nowhere. An agent set up with a folder of its own (CLAUDE_CONFIG_DIR, CODEX_HOME, …) writes there instead.',
    ]),
    known ? systemBlock(first, true) : null,
    disclosure,
  ]);
}
