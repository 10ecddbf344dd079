// Which provider a request through `ctxray record` was meant for, and whether its exchange is written down.
// Only that provider's origin is ever contacted: a request that names neither is answered by the proxy itself.

export type Provider = 'anthropic' | 'openai';

export interface Upstreams {
  anthropic: URL;
  openai: URL;
}

export const DEFAULT_UPSTREAMS = { anthropic: 'https://api.anthropic.com', openai: 'https://api.openai.com' } as const;

/** The request paths whose exchanges are analysis input: the three request-body APIs ctxray reads. */
const RECORDED_PATHS: Readonly<Record<string, Provider>> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'openai',
  '/v1/responses': 'openai',
};

export interface Route {
  provider: Provider;
  /** POST to a request-body API (Messages, Chat Completions, Responses): the exchange is written to the capture. */
  recorded: boolean;
}

/** The path without its query string. */
export function pathOnly(target: string): string {
  const query = target.search(/[?#]/);
  return query < 0 ? target : target.slice(0, query);
}

/**
 * Anthropic when the request carries Anthropic's own headers (`anthropic-version`, sent by every Anthropic SDK and
 * by Claude Code, or an `x-api-key`, which OpenAI never uses), whatever its path, or when its path is under
 * `/v1/messages`; otherwise OpenAI for any other `/v1/` path. Anything else names no provider: null, and nothing
 * is contacted.
 */
export function routeRequest(method: string, target: string, headers: Readonly<Record<string, unknown>>): Route | null {
  if (!target.startsWith('/') || target.startsWith('//')) return null; // absolute-form or authority-form: not a base-URL request
  const path = pathOnly(target);
  const anthropicHeaders = headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined;
  let provider: Provider;
  if (anthropicHeaders || path === '/v1/messages' || path.startsWith('/v1/messages/')) provider = 'anthropic';
  else if (path.startsWith('/v1/')) provider = 'openai';
  else return null;
  const recorded = method === 'POST' && RECORDED_PATHS[path] === provider;
  return { provider, recorded };
}

/**
 * An upstream given on the command line: an http(s) origin only (scheme, host, optional port), because the
 * request path is forwarded as it came. Returns the URL or a message saying what is wrong.
 */
export function parseUpstream(flag: string, value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${flag} must be an http:// or https:// origin, like ${flag === '--upstream-openai' ? DEFAULT_UPSTREAMS.openai : DEFAULT_UPSTREAMS.anthropic}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${flag} must use http:// or https://`;
  if (url.username !== '' || url.password !== '') return `${flag} must not carry a user name or password`;
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    return `${flag} must be an origin without a path (the request path, /v1/..., is forwarded as it came)`;
  }
  return url;
}
