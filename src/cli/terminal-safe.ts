// Terminal output carries strings taken from untrusted input: model ids, file names found in folders, tool names
// with --content. Control characters inside them could drive the terminal (clear it, retitle it, write the
// clipboard with OSC 52, hide or reorder text). Every control character is therefore shown escaped (`\u001b`),
// except newline and tab. The CLI's own few sequences (colours, erase-line, the carriage return of a progress line)
// are written as markers that carry a token drawn once per process, which no input can know: only those become
// real sequences, so the same bytes arriving in data stay escaped even on a terminal.
import { randomBytes } from 'node:crypto';
import { escapedChars as escaped, UNSAFE_CHARS as UNSAFE } from '../core/text/json-safe.ts';
import type { CliIO } from './io.ts';

export { jsonTextSafe } from '../core/text/json-safe.ts';

/** Private-use brackets around this process's token: the start of an own-sequence marker. */
const MARK = `\ue000${randomBytes(12).toString('hex')}`;
const MARK_END = '\ue001';
/** An own-sequence marker: what follows ESC (`[1m`, `[K`), or a bare carriage return. */
const OWN = `${MARK}(\\[[0-9]*[mK]|\\r)${MARK_END}`;
const PATTERN = new RegExp(`${OWN}|${UNSAFE}`, 'g');

/** The CLI's own SGR sequence (`ESC [ code m`): bold 1, dim 2, normal 22, red 31, yellow 33, cyan 36, default 39, reset 0. */
export function ownSgr(code: number): string {
  return `${MARK}[${code}m${MARK_END}`;
}

/** The CLI's own erase-to-end-of-line (`ESC [ K`). */
export const OWN_ERASE_LINE = `${MARK}[K${MARK_END}`;
/** The CLI's own carriage return, which starts a progress line's redraw. */
export const OWN_LINE_START = `${MARK}\r${MARK_END}`;

/**
 * The text with every control character escaped. With `ownSequences` (a terminal stream, where the CLI colours
 * and erases), the CLI's own markers become their sequences; without it (a pipe or a file), they are dropped, so
 * no escape sequence at all reaches the output.
 */
export function terminalSafe(text: string, { ownSequences = true }: { ownSequences?: boolean } = {}): string {
  return text.replace(PATTERN, (match, own: string | undefined) => {
    if (own === undefined) return escaped(match);
    if (!ownSequences) return '';
    return own === '\r' ? own : `\u001b${own}`;
  });
}

export interface TerminalStreams {
  /** Whether each stream is a terminal: only then may the CLI's own sequences pass. */
  stdoutIsTerminal: boolean;
  stderrIsTerminal: boolean;
}

/**
 * The same io with both terminal streams made safe. `main` wraps every command's io in it, so every line any
 * command prints (file names, unknown options, model ids, …) passes this one filter.
 */
export function terminalSafeIO(io: CliIO, streams: TerminalStreams = { stdoutIsTerminal: true, stderrIsTerminal: true }): CliIO {
  return {
    ...io,
    stdout: (text) => io.stdout(terminalSafe(text, { ownSequences: streams.stdoutIsTerminal })),
    stderr: (text) => io.stderr(terminalSafe(text, { ownSequences: streams.stderrIsTerminal })),
  };
}
