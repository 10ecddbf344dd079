// Small type guards for walking untrusted JSON without casts scattered everywhere.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(object: JsonObject, key: string): string | null {
  const value = object[key];
  return typeof value === 'string' ? value : null;
}

export function numberField(object: JsonObject, key: string): number | null {
  const value = object[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function objectField(object: JsonObject, key: string): JsonObject | null {
  const value = object[key];
  return isObject(value) ? value : null;
}

/**
 * A shallow copy without `omit` keys, key order kept. A `__proto__` key (an own property after JSON.parse) is
 * copied as a property, not as the copy's prototype, so the copy serializes exactly like the original.
 */
export function copyWithout(object: JsonObject, omit: readonly string[]): JsonObject {
  const copy: JsonObject = {};
  for (const key of Object.keys(object)) {
    if (omit.includes(key)) continue;
    if (key === '__proto__') Object.defineProperty(copy, key, { value: object[key], enumerable: true, writable: true, configurable: true });
    else copy[key] = object[key];
  }
  return copy;
}
