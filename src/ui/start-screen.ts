// The empty state: what ctxray does, and every way to open input — drop, choose files, paste, or an example.
import { browserSystem, folderPicker, renderAgentFolders } from './agent-folders.ts';
import { el } from './dom.ts';
import type { ExampleEntry } from './examples.ts';
import { MAX_INPUT_FRAGMENT_CHARS, type ViewState } from './share.ts';

export interface StartActions {
  chooseFiles(): void;
  /** A folder chosen with the folder picker: its files, read as a dropped folder's. */
  chooseFolder(files: File[]): void;
  paste(text: string): void;
  openExample(entry: ExampleEntry): void;
  /** The clearing workspace on its own (journals and a sidecar, no request log). */
  openClearing(): void;
}

/**
 * A link with view settings (request, panel, format, model) but no example and no input was copied while looking at
 * files opened from disk: files never travel in links, so the start screen says to open them again. Null when the
 * link carries its own input, or nothing at all.
 */
export function localFilesLinkMessage(state: ViewState): string | null {
  if (state.example !== undefined || state.input !== undefined) return null;
  if (state.pasted === true) {
    return 'This address was of pasted text, which the address bar does not keep (a reload or a copied address loses it). Paste it again, or use “Copy link”, which carries a pasted input that fits in a link.';
  }
  const where: string[] = [];
  if (state.request !== undefined) where.push(`request ${state.request}`);
  if (state.panel !== undefined) where.push(`the "${state.panel}" panel`);
  if (where.length === 0 && state.format === undefined && state.model === undefined) return null;
  const view = where.length > 0 ? ` (${where.join(', ')})` : '';
  return (
    `This link refers to a view${view} of files that were opened locally; files opened from disk never travel in a link. ` +
    'Open the same files again (drop them here or choose them) to see it.'
  );
}

export interface StartContent {
  examples: ExampleEntry[] | null;
  examplesError: string | null;
  /** Text kept in the paste box (a paste that could not be read, ready to be fixed). */
  pasted: string;
}

function pasteArea(pasted: string, actions: StartActions): HTMLElement {
  const textarea = el('textarea', {
    className: 'paste-box mono',
    attrs: {
      id: 'paste-input',
      rows: '7',
      spellcheck: 'false',
      placeholder: '{"model": "claude-sonnet-4-5", "system": "…", "messages": […]}\n{"model": …}',
      'aria-label': 'Paste a request body, a JSON array or JSONL',
    },
  });
  textarea.value = pasted;
  const analyzeButton = el('button', {
    className: 'primary',
    text: 'Analyze pasted text',
    attrs: { type: 'button', id: 'paste-analyze' },
    on: {
      click: () => {
        if (textarea.value.trim() !== '') actions.paste(textarea.value);
        else textarea.focus();
      },
    },
  });
  textarea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) analyzeButton.click();
  });
  return el('div', { className: 'paste-area' }, [
    el('label', { className: 'section-title', text: 'Or paste JSON / JSONL', attrs: { for: 'paste-input' } }),
    el('p', {
      className: 'note',
      text: `A share link can carry a pasted input of up to ${MAX_INPUT_FRAGMENT_CHARS.toLocaleString('en-US')} characters once compressed (roughly 50–100 KB of JSON), inside the link's #fragment, which browsers never send to a server.`,
    }),
    textarea,
    el('div', { className: 'row' }, [analyzeButton, el('span', { className: 'muted small', text: 'Ctrl+Enter' })]),
  ]);
}

function exampleButton(entry: ExampleEntry, actions: StartActions): HTMLElement {
  return el('li', {}, [
    el(
      'button',
      {
        className: 'example',
        attrs: { type: 'button', 'data-example': entry.id },
        on: { click: () => actions.openExample(entry) },
      },
      [
        el('span', { className: 'example-title' }, [entry.title, el('span', { className: 'badge', text: 'synthetic' })]),
        el('span', { className: 'example-desc', text: entry.description }),
        el('span', {
          className: 'example-meta mono',
          text: [entry.format, entry.requests !== undefined ? `${entry.requests} requests` : null, entry.file].filter(Boolean).join(' · '),
        }),
      ],
    ),
  ]);
}

function exampleList({ examples, examplesError }: StartContent, actions: StartActions): HTMLElement {
  if (examplesError !== null) return el('p', { className: 'error', text: examplesError });
  if (examples === null) return el('p', { className: 'muted', text: 'Loading examples…' });
  if (examples.length === 0) return el('p', { className: 'muted', text: 'No examples are bundled with this build.' });
  return el('ul', { className: 'examples', attrs: { 'aria-label': 'Built-in synthetic examples' } }, examples.map((entry) => exampleButton(entry, actions)));
}

function dropTarget(actions: StartActions): HTMLElement {
  const folder = folderPicker((files) => actions.chooseFolder(files));
  return el('div', { className: 'drop-target', attrs: { id: 'drop-target' } }, [
    el('div', { className: 'drop-icon', attrs: { 'aria-hidden': 'true' }, text: '⤓' }),
    el('p', { className: 'drop-title', text: 'Drop request files anywhere' }),
    el('p', { className: 'muted', text: 'One file or several; .json, .jsonl, .gz — or a folder of sessions' }),
    el('div', { className: 'row drop-buttons' }, [
      el('button', { className: 'primary', text: 'Choose files…', attrs: { type: 'button', id: 'choose-files' }, on: { click: () => actions.chooseFiles() } }),
      folder.button,
      folder.input,
    ]),
  ]);
}

export function renderStartScreen(host: HTMLElement, content: StartContent, actions: StartActions): void {
  host.replaceChildren(
    el('div', { className: 'start' }, [
      el('section', { className: 'start-intro' }, [
        el('h1', { text: 'See what your agent actually sends.' }),
        el('p', {
          className: 'lede',
          text: 'Open the raw request log of an LLM agent — Anthropic Messages, OpenAI Chat Completions or Responses bodies; a single body, a JSON array or JSONL, plain or gzipped; batch files, gateway logs and agent transcripts — and see where every token goes.',
        }),
        el('p', { className: 'privacy' }, [
          el('strong', { text: 'Nothing leaves this tab. ' }),
          "The analysis runs in your browser, and the page's Content-Security-Policy (connect-src 'self') forbids it from contacting any other host.",
        ]),
      ]),
      el('section', { className: 'start-grid' }, [dropTarget(actions), pasteArea(content.pasted, actions)]),
      renderAgentFolders(browserSystem()),
      el('section', { className: 'start-clearing' }, [
        el('h2', { className: 'section-title', text: 'Tool-result clearing' }),
        el('p', { className: 'muted' }, [
          'Would clearing old tool results pay off for your agent? A BUILD / DEFER / STOP verdict per API from pi session journals and a tool-history sidecar — no request log needed. Drop a case folder (journals, sidecar, routes, qualification) anywhere, or ',
          el('button', { className: 'link', text: 'open the clearing workspace', attrs: { type: 'button', id: 'open-clearing' }, on: { click: () => actions.openClearing() } }),
          '.',
        ]),
      ]),
      el('section', { className: 'start-examples' }, [
        el('h2', { className: 'section-title', text: 'Examples' }),
        el('p', { className: 'muted small', text: 'Generated, synthetic sessions (no real user data), fetched from this site only when you pick one.' }),
        exampleList(content, actions),
      ]),
    ]),
  );
}
