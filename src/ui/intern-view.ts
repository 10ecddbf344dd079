// The analysis view arrives by structured clone, which copies every string: the same block path, hash and tool
// name resent in each of 28,000 requests arrives as 28,000 strings. Sharing one copy of each keeps the page's
// heap to the distinct strings (the copies are collected).
import type { AnalysisView } from '../worker/view-model.ts';

/** Replaces each segment's repeated strings (path, hash, tool name, role) and each model id with one shared copy. */
export function shareRepeatedStrings(view: AnalysisView): void {
  const shared = new Map<string, string>();
  const one = (text: string): string => {
    const known = shared.get(text);
    if (known !== undefined) return known;
    shared.set(text, text);
    return text;
  };
  for (const request of view.requests) {
    if (request.model !== null) request.model = one(request.model);
    for (const segment of request.segments) {
      segment.path = one(segment.path);
      segment.hash = one(segment.hash);
      if (segment.toolName !== null) segment.toolName = one(segment.toolName);
      if (segment.role !== null) segment.role = one(segment.role);
    }
  }
}
