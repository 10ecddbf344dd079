// Validation of the small JSON inputs: routes, agent-config attestations and the app allowlist.
// Each parser returns the typed value or a fixed-reason error with a JSON location; values are never echoed.

import { isSupportedApi, type InputErrorReason, type InputName, type SupportedApi } from './codes.ts';
import { isObject, type Json } from './journal/parse.ts';

export interface InputError {
  input: InputName;
  reason: InputErrorReason;
  /** JSON location such as `[2].prices.cacheRead`; made of our own field names and indexes only. */
  at: string;
}

/**
 * A small JSON input's text parsed; text that is not JSON becomes a located `not_json` error (null), never an
 * exception. Every front end reads these inputs through this one function.
 */
export function parsedJsonInput(text: string, input: InputName, errors: InputError[]): unknown {
  try {
    return JSON.parse(text);
  } catch {
    errors.push({ input, reason: 'not_json', at: '' });
    return null;
  }
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: InputError };

export interface Weights {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface Route {
  api: SupportedApi;
  triggerTokens: number;
  drainTokens: number;
  summaryInputTokens: number;
  summaryOutputTokens: number;
  /** null = "unknown": never qualifies as cold. */
  cacheLifetimeMs: number | null;
  cacheMarginMs: number;
  /** Currency per million tokens. */
  prices: Weights;
  /** Quota units per token. */
  quota: Weights;
  quotaBudget: number;
}

function fail<T>(input: InputName, reason: InputErrorReason, at: string): Parsed<T> {
  return { ok: false, error: { input, reason, at } };
}

/**
 * Each entry of an input's array, read by `readEntry` in order (`seen` shared, for duplicates): the first entry
 * that is not an object or does not read is the input's error.
 */
function parseEntries<T>(
  json: readonly unknown[],
  input: InputName,
  readEntry: (entry: Record<string, unknown>, at: string, seen: Set<string>) => Parsed<T>,
): Parsed<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < json.length; index++) {
    const at = `[${index}]`;
    const entry: unknown = json[index];
    if (!isObject(entry)) return fail(input, 'shape', at);
    const read = readEntry(entry, at, seen);
    if (!read.ok) return read;
    out.push(read.value);
  }
  return { ok: true, value: out };
}

function finiteAtLeast(value: unknown, minimum: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= minimum;
}

function readWeights(value: unknown, at: string): Parsed<Weights> {
  if (!isObject(value)) return fail('routes', 'shape', at);
  const out: Partial<Weights> = {};
  for (const key of ['input', 'cacheRead', 'cacheWrite', 'output'] as const) {
    if (!finiteAtLeast(value[key], 0)) return fail('routes', 'value_out_of_range', `${at}.${key}`);
    out[key] = value[key] as number;
  }
  return { ok: true, value: out as Weights };
}

/** Routes: a non-empty array, one entry per supported API, homogeneous assumptions for that API's history. */
export function parseRoutes(json: unknown): Parsed<Route[]> {
  if (!Array.isArray(json) || json.length === 0) return fail('routes', 'shape', '');
  return parseEntries(json, 'routes', routeOf);
}

function routeOf(entry: Record<string, unknown>, at: string, seen: Set<string>): Parsed<Route> {
  if (!isSupportedApi(entry.api)) return fail('routes', 'unsupported_api', `${at}.api`);
  if (seen.has(entry.api)) return fail('routes', 'duplicate_entry', `${at}.api`);
  seen.add(entry.api);
  for (const key of ['triggerTokens', 'quotaBudget'] as const) {
    if (!finiteAtLeast(entry[key], 0) || (entry[key] as number) <= 0) {
      return fail('routes', 'value_out_of_range', `${at}.${key}`);
    }
  }
  for (const key of ['drainTokens', 'summaryInputTokens', 'summaryOutputTokens', 'cacheMarginMs'] as const) {
    if (!finiteAtLeast(entry[key], 0)) return fail('routes', 'value_out_of_range', `${at}.${key}`);
  }
  // The drain must leave a positive distance to the trigger, or the cycle count T − P divides by zero.
  if ((entry.drainTokens as number) >= (entry.triggerTokens as number)) {
    return fail('routes', 'value_out_of_range', `${at}.drainTokens`);
  }
  const lifetime = entry.cacheLifetimeMs;
  if (lifetime !== 'unknown' && !finiteAtLeast(lifetime, 0)) {
    return fail('routes', 'value_out_of_range', `${at}.cacheLifetimeMs`);
  }
  const prices = readWeights(entry.prices, `${at}.prices`);
  if (!prices.ok) return prices;
  const quota = readWeights(entry.quota, `${at}.quota`);
  if (!quota.ok) return quota;
  return {
    ok: true,
    value: {
      api: entry.api,
      triggerTokens: entry.triggerTokens as number,
      drainTokens: entry.drainTokens as number,
      summaryInputTokens: entry.summaryInputTokens as number,
      summaryOutputTokens: entry.summaryOutputTokens as number,
      cacheLifetimeMs: lifetime === 'unknown' ? null : (lifetime as number),
      cacheMarginMs: entry.cacheMarginMs as number,
      prices: prices.value,
      quota: quota.value,
      quotaBudget: entry.quotaBudget as number,
    },
  };
}

/** One attested tool inventory: enabled built-ins and the MCP names exposed (null = inventory missing). */
export interface Inventory {
  builtins: Set<string>;
  mcpExposed: Set<string> | null;
}

export type AgentConfig =
  | { kind: 'period'; inventory: Inventory }
  | { kind: 'per_run'; byRun: Map<string, Inventory> };

function readInventory(entry: Json, at: string): Parsed<Inventory> {
  if (!Array.isArray(entry.builtins) || !entry.builtins.every((name) => typeof name === 'string')) {
    return fail('agent_config', 'shape', `${at}.builtins`);
  }
  let mcpExposed: Set<string> | null;
  if (entry.mcpTools === undefined) mcpExposed = null; // missing inventory is not proof
  else if (entry.mcpTools === 'none') mcpExposed = new Set();
  else if (Array.isArray(entry.mcpTools)) {
    mcpExposed = new Set();
    for (let index = 0; index < entry.mcpTools.length; index++) {
      const tool: unknown = entry.mcpTools[index];
      if (!isObject(tool) || typeof tool.exposedName !== 'string' || tool.exposedName === '') {
        return fail('agent_config', 'shape', `${at}.mcpTools[${index}].exposedName`);
      }
      mcpExposed.add(tool.exposedName);
    }
  } else return fail('agent_config', 'shape', `${at}.mcpTools`);
  return { ok: true, value: { builtins: new Set(entry.builtins as string[]), mcpExposed } };
}

/**
 * Agent config: a period attestation object, or an array of per-run proofs each adding a unique non-empty runId.
 * Missing or repeated run ids invalidate the whole input rather than picking a first match.
 */
export function parseAgentConfig(json: unknown): Parsed<AgentConfig> {
  if (isObject(json)) {
    const inventory = readInventory(json, '');
    return inventory.ok ? { ok: true, value: { kind: 'period', inventory: inventory.value } } : inventory;
  }
  if (!Array.isArray(json) || json.length === 0) return fail('agent_config', 'shape', '');
  const byRun = new Map<string, Inventory>();
  for (let index = 0; index < json.length; index++) {
    const at = `[${index}]`;
    const entry: unknown = json[index];
    if (!isObject(entry)) return fail('agent_config', 'shape', at);
    if (typeof entry.runId !== 'string' || entry.runId === '') return fail('agent_config', 'missing', `${at}.runId`);
    if (byRun.has(entry.runId)) return fail('agent_config', 'duplicate_entry', `${at}.runId`);
    const inventory = readInventory(entry, at);
    if (!inventory.ok) return inventory;
    byRun.set(entry.runId, inventory.value);
  }
  return { ok: true, value: { kind: 'per_run', byRun } };
}

export interface AllowlistEntry {
  server: string;
  tool: string;
  serverIdentityDigest: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** App allowlist: reviewed read-only MCP tools, each bound to the SHA-256 of the reviewed server identity. */
export function parseAppAllowlist(json: unknown): Parsed<AllowlistEntry[]> {
  if (!Array.isArray(json)) return fail('app_allowlist', 'shape', '');
  return parseEntries(json, 'app_allowlist', allowlistEntryOf);
}

function allowlistEntryOf(entry: Record<string, unknown>, at: string, seen: Set<string>): Parsed<AllowlistEntry> {
  for (const key of ['server', 'tool'] as const) {
    if (typeof entry[key] !== 'string' || entry[key] === '') return fail('app_allowlist', 'shape', `${at}.${key}`);
  }
  if (typeof entry.serverIdentityDigest !== 'string' || !SHA256_HEX.test(entry.serverIdentityDigest)) {
    return fail('app_allowlist', 'shape', `${at}.serverIdentityDigest`);
  }
  if (entry.readOnly !== true) return fail('app_allowlist', 'value_out_of_range', `${at}.readOnly`);
  const key = JSON.stringify([entry.server, entry.tool, entry.serverIdentityDigest]);
  if (seen.has(key)) return fail('app_allowlist', 'duplicate_entry', at);
  seen.add(key);
  return {
    ok: true,
    value: { server: entry.server as string, tool: entry.tool as string, serverIdentityDigest: entry.serverIdentityDigest as string },
  };
}
