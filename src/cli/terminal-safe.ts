// Terminal output carries strings taken from untrusted input: model ids, file names found in folders, tool names
// with --content. Control characters inside them could drive the terminal (clear it, retitle it, write the
// clipboard with OSC 52, hide or reorder text). Every control character is therefore shown escaped (`\u001b`),
// except newline and tab, a carriage return that starts a write (progress lines), and the few colour and
// line-erase sequences the CLI writes itself.
import type { CliIO } from './io.ts';

/** C0 and C1 controls (not \t, \n), DEL, and the bidi embedding, override, isolate and mark characters. */
const UNSAFE = '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]';
/** The CLI's own sequences: SGR bold/dim/colour/reset codes it uses, and erase-to-end-of-line. */
const OWN = '\\u001b\\[(?:0|1|2|22|31|33|36|39)?m|\\u001b\\[K';
const PATTERN = new RegExp(`${OWN}|${UNSAFE}`, 'g');

function escaped(text: string): string {
  let out = '';
  for (const ch of text) out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * The text with every control character escaped. With `ownSequences` (a terminal stream, where the CLI colours
 * and erases), the CLI's own few sequences and a carriage return that starts a write pass; without it (a pipe or
 * a file, where the CLI writes none), nothing does, so no sequence that arrived in data can reach the output.
 */
export function terminalSafe(text: string, ownSequences = true): string {
  return text.replace(PATTERN, (match, offset: number) => {
    if (match.length > 1) return ownSequences ? match : escaped(match);
    if (match === '\r' && offset === 0 && ownSequences) return match;
    return escaped(match);
  });
}

const UNSAFE_PATTERN = new RegExp(UNSAFE, 'g');

/**
 * JSON text (JSON.stringify's, which escapes C0 controls itself) with the C1, DEL and bidi characters it leaves raw
 * written as `\uXXXX` escapes too: the same value when parsed, and nothing that acts when the file is printed.
 */
export function jsonTextSafe(json: string): string {
  return json.replace(UNSAFE_PATTERN, escaped);
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
    stdout: (text) => io.stdout(terminalSafe(text, streams.stdoutIsTerminal)),
    stderr: (text) => io.stderr(terminalSafe(text, streams.stderrIsTerminal)),
  };
}
