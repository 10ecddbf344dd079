// What an unrecognised record looks like, for the error that refuses it: its top-level keys and, for arrays, the
// keys of their first object element. Key names only (never values), and only names that look like identifiers;
// the rest are counted, so the message carries no payload text.

import { isObject } from './json-value.ts';

const MAX_KEYS = 8;
/** Identifier-like names only: a key that is data (an id, a token, a path) is counted, not shown. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

function keyList(object: Record<string, unknown>, nested: boolean): string {
  const keys = Object.keys(object);
  const named = keys.filter((key) => FIELD_NAME.test(key));
  const shown = named.slice(0, MAX_KEYS).map((key) => {
    const value = object[key];
    if (!nested || !Array.isArray(value)) return key;
    const first = value.find(isObject);
    return first === undefined ? `${key}[${value.length}]` : `${key}[${value.length}] of {${keyList(first, false)}}`;
  });
  const more = keys.length - shown.length;
  return more > 0 ? `${shown.join(', ')}, +${more} more` : shown.join(', ');
}

/** e.g. `an object {sessionId, messages[14] of {id, type, content}}`. */
export function describeShape(value: unknown): string {
  if (Array.isArray(value)) return `a JSON array of ${value.length}`;
  if (!isObject(value)) return value === null ? 'null' : `a JSON ${typeof value}`;
  return `an object {${keyList(value, true)}}`;
}
