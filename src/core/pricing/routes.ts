// How a model id names its route: the prefixes and wrappers a gateway, router or cloud puts around the id of the
// model it serves. Peeling them leaves a bare id the table can match (api id, snapshot, Vertex `@date`, Bedrock
// `anthropic.…`); the route decides only whether that route's published price differs (Bedrock regional endpoints).

/** Which route an id was written for, as far as the id says. */
export type RouteKind = 'bedrock' | 'openrouter' | 'azure' | 'vertex' | null;

export interface PeeledId {
  /** The id without route wrappers, lower-cased. */
  bare: string;
  route: RouteKind;
  /** Bedrock: the inference-profile prefix (`us`, `eu`, `apac`, `jp`, `au`, `ca`, `us-gov`, `global`) or null. */
  geo: string | null;
}

/** Bedrock's cross-Region inference-profile prefixes (geographic ones and `global`). */
const BEDROCK_GEO = /^(us-gov|us|eu|apac|jp|au|ca|global)\./;
/** A Bedrock ARN of a foundation model or a system-defined inference profile. */
const BEDROCK_ARN = /^arn:aws[\w-]*:bedrock:[^:]*:[^:]*:(?:foundation-model|inference-profile)\//;
/** LiteLLM's Bedrock routes (`bedrock/`, `bedrock/converse/`, `converse/`, `invoke/`). */
const BEDROCK_ROUTE = /^(?:bedrock\/)?(?:converse\/|invoke\/)?/;
/** OpenRouter (and LiteLLM) `vendor/model` ids; `openrouter/` in front when LiteLLM routes through it. */
const VENDOR_SLASH = /^(?:openrouter\/)?(anthropic|openai|google|gemini)\//;
const AZURE = /^(?:azure|azure_ai)\//;
/** Vertex AI and Gemini API resource forms. */
const VERTEX = /^(?:vertex_ai\/|(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/(?:anthropic|google)\/models\/)/;
const GEMINI_RESOURCE = /^models\//;
/** OpenRouter variant suffixes that bill as the model itself (`:free` does not, and is left unknown). */
const OPENROUTER_VARIANT = /:(?:thinking|beta|extended)$/;

export function peelRoute(requestedId: string): PeeledId {
  let id = requestedId.trim().toLowerCase();
  let route: RouteKind = null;
  if (BEDROCK_ARN.test(id)) {
    id = id.replace(BEDROCK_ARN, '');
    route = 'bedrock';
  } else if (/^(?:bedrock\/|converse\/|invoke\/)/.test(id)) {
    id = id.replace(BEDROCK_ROUTE, '');
    route = 'bedrock';
  } else if (AZURE.test(id)) {
    id = id.replace(AZURE, '');
    route = 'azure';
  } else if (VERTEX.test(id)) {
    id = id.replace(VERTEX, '');
    route = 'vertex';
  } else if (VENDOR_SLASH.test(id)) {
    id = id.replace(VENDOR_SLASH, '').replace(OPENROUTER_VARIANT, '');
    route = 'openrouter';
  }
  id = id.replace(GEMINI_RESOURCE, '');
  const geo = BEDROCK_GEO.exec(id)?.[1] ?? null;
  if (geo !== null && id.slice(geo.length + 1).startsWith('anthropic.')) {
    id = id.slice(geo.length + 1);
    route = 'bedrock';
  } else if (id.startsWith('anthropic.')) {
    route = 'bedrock';
  }
  return { bare: id, route, geo: route === 'bedrock' ? geo : null };
}

/**
 * OpenRouter writes Claude versions with dots and a bare major version (`claude-sonnet-4.5`, `claude-3.7-sonnet`,
 * `claude-opus-4`): the API id has dashes and `-0` (`claude-sonnet-4-5`, `claude-3-7-sonnet`, `claude-opus-4-0`).
 */
export function dashedClaudeId(id: string): string | null {
  if (!id.startsWith('claude-')) return null;
  const dashed = id.replace(/(\d)\.(\d)/g, '$1-$2');
  const major = /^claude-(?:opus|sonnet|haiku)-\d$/.test(dashed) ? `${dashed}-0` : dashed;
  return major === id ? null : major;
}

/** Bedrock's published premium of a regional endpoint over the global one, for the models that have it. */
export const BEDROCK_REGIONAL_FACTOR = 1.1;
