// Marker planting: every text-bearing string of an input is prefixed with a unique marker (`zqxleak<n>q`), so
// any output that carries a marker carried input text. Structural values the readers dispatch on (types, roles,
// model ids, enums, timestamps, numbers) are kept, or the input would stop being the format it is. The same
// original string always gets the same marker within one planting, so ids that link records (tool_use id ↔
// tool_result, parentId ↔ id, custom_id across batch files) still link.

export const MARKER_PREFIX = 'zqxleak';
export const MARKER_PATTERN = /zqxleak[0-9a-z]+q/gi;

/** Keys whose string values are structure, not text: the readers dispatch on them. */
const STRUCTURAL_KEYS = new Set([
  'type', 'role', 'model', 'modelId', 'media_type', 'mime_type', 'detail', 'format', 'object', 'method', 'url_path',
  'endpoint', 'ttl', 'status', 'stop_reason', 'stopReason', 'api', 'provider', 'version', 'timestamp', 'created_at',
  'thinkingLevel', 'encoding', 'service_tier', 'effort', 'reasoning_effort', 'tool_choice', 'prompt_cache_retention',
  'mode', 'include', 'truncation', 'verbosity', 'suite', 'adapter', 'state', 'policy', 'schema', 'fixtures',
  'piAiVersion', 'sourceDigest', 'result', 'alwaysDefers', 'level', 'cacheLifetimeMs', 'serverIdentityDigest',
  'sha256', 'budget_tokens', 'event_type',
]);

/** An OpenAI batch line's `url` names the endpoint, which picks the format: keep it when it is a path. */
function structuralValue(key: string | null, value: string): boolean {
  if (key !== null && STRUCTURAL_KEYS.has(key)) return true;
  if (key === 'url' && value.startsWith('/v1/')) return true;
  // ISO timestamps anywhere (transcripts carry them under several names).
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value);
}

/** Keys whose object values are payload (tool arguments, schema properties): their member names are text too. */
const PAYLOAD_OBJECT_KEYS = new Set(['input', 'arguments', 'properties', 'variables', 'metadata', 'headers']);

export class Planter {
  private readonly byOriginal = new Map<string, string>();
  private next = 0;

  constructor(private readonly namespace: string) {}

  /** How many distinct strings were planted. */
  get planted(): number {
    return this.byOriginal.size;
  }

  marker(original: string): string {
    let planted = this.byOriginal.get(original);
    if (planted === undefined) {
      planted = `${MARKER_PREFIX}${this.namespace}${(this.next++).toString(36)}q${original}`;
      this.byOriginal.set(original, planted);
    }
    return planted;
  }

  /** A planted copy of a JSON value. */
  value(value: unknown, key: string | null = null): unknown {
    if (typeof value === 'string') {
      if (structuralValue(key, value)) return value;
      // JSON carried as a string (tool-call arguments, gateway bodies): plant inside it and keep it JSON.
      const trimmed = value.trimStart();
      if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
        try {
          return JSON.stringify(this.value(JSON.parse(value) as unknown, key));
        } catch {
          // not JSON after all: plant it as text
        }
      }
      return this.marker(value);
    }
    if (Array.isArray(value)) return value.map((item) => this.value(item, key));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      const renameMembers = key !== null && PAYLOAD_OBJECT_KEYS.has(key);
      for (const [member, inner] of Object.entries(value)) {
        out[renameMembers ? this.marker(member) : member] = this.value(inner, member);
      }
      return out;
    }
    return value;
  }

  /** JSONL or one JSON document, planted line by line (lines that are not JSON are planted as text). */
  text(text: string): string {
    const trimmed = text.trim();
    if (!trimmed.includes('\n') || (trimmed.startsWith('[') && isJson(trimmed)) || (trimmed.startsWith('{') && isJson(trimmed) && trimmed.includes('\n'))) {
      if (isJson(trimmed)) return `${JSON.stringify(this.value(JSON.parse(trimmed) as unknown))}\n`;
    }
    return text
      .split('\n')
      .map((line) => (line.trim() === '' ? line : isJson(line) ? JSON.stringify(this.value(JSON.parse(line) as unknown)) : this.marker(line)))
      .join('\n');
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Every marker found in `output` (empty when nothing leaked). */
export function leakedMarkers(output: string): string[] {
  return [...new Set(output.match(MARKER_PATTERN) ?? [])];
}
