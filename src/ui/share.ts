// View state in the URL fragment. Fragments never reach a server, so a small pasted input can travel inside one:
// deflated with fflate and base64url-encoded. Requests are numbered from 1 in links, as in the UI.
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import type { WireFormat } from '../core/model.ts';
import { isZoomGroup } from '../render/treemap-zoom.ts';

/** Longest `input=` value a link may carry (characters after encoding); bigger inputs cannot be shared as links. */
export const MAX_INPUT_FRAGMENT_CHARS = 16_384;
/** Largest inflated input accepted from a link, so a crafted fragment cannot expand into gigabytes. */
export const MAX_INPUT_INFLATED_BYTES = 4 * 1024 * 1024;

/** Longest treemap search a link carries. */
export const MAX_FIND_CHARS = 200;

const FORMATS: readonly WireFormat[] = ['anthropic-messages', 'openai-chat', 'openai-responses'];

export interface ViewState {
  example?: string;
  /** Pasted input text carried in the link. */
  input?: string;
  /** The view was of pasted text that the address bar does not carry (`src=paste`): a reload says so. */
  pasted?: boolean;
  /** 1-based request number. */
  request?: number;
  panel?: string;
  /** JSON path of the selected block, e.g. `messages[3].content[1]`. */
  segment?: string;
  /** The treemap's zoom group (`m3`, `system`, ...; src/render/treemap-zoom.ts). */
  zoom?: string;
  /** The treemap's search text. */
  find?: string;
  /** False when calibration on recorded usage is turned off (`calibrate=off`; on is the default). */
  calibrate?: boolean;
  format?: WireFormat;
  model?: string;
}

export type ParsedFragment = { ok: true; state: ViewState } | { ok: false; state: ViewState; error: string };

export function encodeInput(text: string): string {
  const packed = deflateSync(strToU8(text), { level: 9 });
  let binary = '';
  for (let i = 0; i < packed.length; i += 0x8000) binary += String.fromCharCode(...packed.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeInput(encoded: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) throw new Error('the input in the link is not base64url');
  if (encoded.length > MAX_INPUT_FRAGMENT_CHARS) {
    throw new Error(`the input in the link is ${encoded.length} characters; links carry at most ${MAX_INPUT_FRAGMENT_CHARS}`);
  }
  const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (encoded.length % 4)) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  let inflated: Uint8Array;
  try {
    inflated = inflateSync(bytes, { out: undefined });
  } catch {
    throw new Error('the input in the link is damaged (it does not inflate): the link may have been cut short');
  }
  if (inflated.length > MAX_INPUT_INFLATED_BYTES) {
    throw new Error(`the input in the link inflates to ${inflated.length} bytes; at most ${MAX_INPUT_INFLATED_BYTES} are accepted`);
  }
  return strFromU8(inflated);
}

/** A fragment being read: its parameters, the state so far and what was wrong with it, in the order found. */
interface Reading {
  params: URLSearchParams;
  state: ViewState;
  problems: string[];
}

/** What the view is of: an example, or pasted input carried in the link (or not: `src=paste`). */
function readSource({ params, state, problems }: Reading): void {
  const example = params.get('example');
  if (example !== null) {
    if (/^[a-z0-9][a-z0-9._-]{0,80}$/i.test(example)) state.example = example;
    else problems.push('the example id in the link is not valid');
  }
  const input = params.get('input');
  if (input !== null) {
    try {
      state.input = decodeInput(input);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (params.get('src') === 'paste' && state.input === undefined) state.pasted = true;
}

/** Where the view is: the request, the panel and the selected block. */
function readPlace({ params, state, problems }: Reading): void {
  const request = params.get('request');
  if (request !== null) {
    const n = Number(request);
    if (Number.isInteger(n) && n >= 1) state.request = n;
    else problems.push(`request=${request.slice(0, 20)} is not a request number`);
  }
  const panel = params.get('panel');
  if (panel !== null && /^[a-z0-9-]{1,40}$/.test(panel)) state.panel = panel;
  const segment = params.get('segment');
  if (segment !== null) {
    // A JSON path as the importers write them: names, indices and dots; anything else is not one of ours.
    if (/^[\w$@:.[\]-]{1,300}$/.test(segment)) state.segment = segment;
    else problems.push('the segment in the link is not a block path');
  }
}

/** The treemap's zoom and search. */
function readTreemap({ params, state, problems }: Reading): void {
  const zoom = params.get('zoom');
  if (zoom !== null) {
    if (isZoomGroup(zoom)) state.zoom = zoom;
    else problems.push('the treemap zoom in the link is not a message or category');
  }
  const find = params.get('find');
  if (find !== null) {
    if (find.length <= MAX_FIND_CHARS) state.find = find;
    else problems.push(`the treemap search in the link is longer than ${MAX_FIND_CHARS} characters`);
  }
}

/** How the input is read: calibration, wire format, model (a bad value is ignored). */
function readOptions({ params, state }: Reading): void {
  const calibrate = params.get('calibrate');
  if (calibrate === 'off') state.calibrate = false;
  const format = params.get('format');
  if (format !== null && (FORMATS as readonly string[]).includes(format)) state.format = format as WireFormat;
  const model = params.get('model');
  if (model !== null && /^[\w.:@/-]{1,120}$/.test(model)) state.model = model;
}

/** `#example=a&request=3` → state. Unknown keys are ignored; a bad value is reported, not thrown. */
export function parseFragment(hash: string): ParsedFragment {
  const reading: Reading = { params: new URLSearchParams(hash.replace(/^#/, '')), state: {}, problems: [] };
  readSource(reading);
  readPlace(reading);
  readTreemap(reading);
  readOptions(reading);
  const { state, problems } = reading;
  return problems.length === 0 ? { ok: true, state } : { ok: false, state, error: problems.join('; ') };
}

export type BuiltFragment = { ok: true; hash: string } | { ok: false; hash: string; reason: string };

/** State → `#...`. An input too large for a link is left out and the reason returned. */
export function buildFragment(state: ViewState): BuiltFragment {
  const params = new URLSearchParams();
  let reason: string | null = null;
  if (state.example !== undefined) params.set('example', state.example);
  else if (state.input !== undefined) {
    const encoded = encodeInput(state.input);
    if (encoded.length <= MAX_INPUT_FRAGMENT_CHARS) params.set('input', encoded);
    else {
      reason = `This pasted input compresses to ${encoded.length.toLocaleString('en-US')} characters; a link carries at most ${MAX_INPUT_FRAGMENT_CHARS.toLocaleString('en-US')}, so no link was copied: without the input it would open an empty app. Save the text as a file and share that.`;
    }
  }
  if (state.pasted === true && state.example === undefined && state.input === undefined) params.set('src', 'paste');
  if (state.request !== undefined) params.set('request', String(state.request));
  if (state.panel !== undefined) params.set('panel', state.panel);
  if (state.segment !== undefined) params.set('segment', state.segment);
  if (state.zoom !== undefined) params.set('zoom', state.zoom);
  if (state.find !== undefined && state.find !== '') params.set('find', state.find.slice(0, MAX_FIND_CHARS));
  if (state.calibrate === false) params.set('calibrate', 'off');
  if (state.format !== undefined) params.set('format', state.format);
  if (state.model !== undefined) params.set('model', state.model);
  const query = params.toString();
  const hash = query === '' ? '' : `#${query}`;
  return reason === null ? { ok: true, hash } : { ok: false, hash, reason };
}
