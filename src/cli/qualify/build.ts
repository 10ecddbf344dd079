// Builds complete provider request bodies with the real installed pi-ai builders, entirely offline:
// `onPayload` receives the finished body, keeps a copy, aborts the signal and throws, so the provider code
// stops before any transport is opened. A fetch guard makes any network attempt fail loudly and be counted.
import { getModel, stream, type Api, type Context, type Model } from '@mariozechner/pi-ai';
import { QUALIFICATION_MODELS, type QualifiedApi } from './fixtures.ts';

/** Thrown from inside onPayload to stop the provider right after the body is built. */
class PayloadCaptured extends Error {
  constructor() {
    super('payload captured offline; request intentionally not sent');
  }
}

// A syntactically valid but unsigned JWT carrying the claim pi-ai's Codex builder reads (chatgpt_account_id).
// SYNTHETIC: it authorizes nothing and is never sent anywhere.
const SYNTHETIC_CODEX_TOKEN = [
  { alg: 'none', typ: 'JWT' },
  { 'https://api.openai.com/auth': { chatgpt_account_id: 'synthetic-offline-account' } },
]
  .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
  .concat('synthetic-unsigned')
  .join('.');

const OFFLINE_API_KEY = 'synthetic-offline-key-never-sent';

export function qualificationModel(api: QualifiedApi): Model<Api> {
  const { provider, id } = QUALIFICATION_MODELS[api];
  // getModel is typed against the generated registry; the names above are checked at run time instead.
  const model = (getModel as (p: string, m: string) => Model<Api> | undefined)(provider, id);
  if (!model) throw new Error(`pi-ai model registry has no ${provider}/${id} (needed for ${api})`);
  if (model.api !== api) throw new Error(`pi-ai model ${provider}/${id} speaks ${model.api}, not ${api}`);
  return model;
}

/** Counts and refuses every fetch while installed; restore() puts the original back. */
export interface FetchGuard {
  readonly calls: number;
  restore(): void;
}

export function installFetchGuard(): FetchGuard {
  const original = globalThis.fetch;
  let calls = 0;
  globalThis.fetch = (() => {
    calls += 1;
    return Promise.reject(new Error('ctxray qualify is offline: network access refused'));
  }) as typeof fetch;
  return {
    get calls() {
      return calls;
    },
    restore() {
      globalThis.fetch = original;
    },
  };
}

/** Runs the provider's stream function until onPayload fires and returns a deep copy of the complete body. */
export async function buildPayload(model: Model<Api>, context: Context): Promise<unknown> {
  const controller = new AbortController();
  let captured: unknown;
  let seen = false;
  const events = stream(model, context, {
    apiKey: model.api === 'openai-codex-responses' ? SYNTHETIC_CODEX_TOKEN : OFFLINE_API_KEY,
    signal: controller.signal,
    // Fixed options so the body does not depend on the environment (PI_CACHE_RETENTION) or the clock.
    cacheRetention: 'short',
    transport: 'sse',
    maxRetries: 0,
    onPayload: (payload) => {
      captured = structuredClone(payload);
      seen = true;
      controller.abort();
      throw new PayloadCaptured();
    },
  });
  // The stream settles with the aborted/error message our throw produces.
  const final = await events.result();
  if (!seen) {
    throw new Error(`pi-ai ${model.api} builder stopped before onPayload (${final.stopReason}: ${final.errorMessage ?? 'no message'})`);
  }
  return captured;
}
