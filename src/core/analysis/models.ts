// Resolves the model that prices each request: the override when given, else the id the request names.
import type { ParsedRequest } from '../model.ts';
import { lookupModel } from '../pricing/lookup.ts';
import type { ModelUse, ResolvedModel } from './types.ts';

export function resolveModel(request: ParsedRequest, override: string | null): ResolvedModel {
  const id = override ?? request.model;
  if (id === null || id === '') return { id: null, source: 'none', pricing: null, via: null };
  const match = lookupModel(id);
  return { id, source: override === null ? 'request' : 'override', pricing: match?.pricing ?? null, via: match?.via ?? null };
}

/** Each distinct model id with its request count, in first-seen order. */
export function modelUseOf(models: readonly ResolvedModel[]): ModelUse[] {
  const uses = new Map<string | null, ModelUse>();
  for (const model of models) {
    const use = uses.get(model.id);
    if (use) use.requests++;
    else uses.set(model.id, { id: model.id, requests: 1, known: model.pricing !== null, pricedAs: model.pricing?.id ?? null });
  }
  return [...uses.values()];
}
