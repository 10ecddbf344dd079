// The Timeline panel's data: per request, when it was sent, its reconstructed and recorded prompt, recorded and
// simulated cache reads, and whether it is a compaction. Numbers only, so it crosses from the worker as is.
import type { Analysis } from '../analysis/types.ts';
import { reconstructedTokens } from '../cache/unrecorded-setup.ts';
import type { TranscriptAgreement } from './agreement.ts';

export interface TimelinePoint {
  request: number;
  conversation: number;
  /** Milliseconds since the epoch, or null (then the chart places requests by order). */
  timestamp: number | null;
  reconstructed: number;
  /** reconstructed + inferred setup + redaction estimate, when recorded usage gave a setup. */
  predicted: number | null;
  recordedPrompt: number | null;
  recordedRead: number | null;
  simulatedRead: number;
  optimizedRead: number;
  compaction: boolean;
}

export interface Timeline {
  points: TimelinePoint[];
  /** Every request has a timestamp: the x axis is time. */
  timed: boolean;
  compactions: number;
}

export function timelineOf(analysis: Analysis, agreement: TranscriptAgreement): Timeline {
  const rowByRequest = new Map(agreement.requests.map((row) => [row.request, row]));
  const compactions = new Set(agreement.compactions);
  const actual = analysis.cache?.cost.actual.simulation.requests;
  const optimized = analysis.cache?.cost.optimized.simulation.requests;
  const points = analysis.requests.map((request, r): TimelinePoint => {
    const row = rowByRequest.get(r);
    return {
      request: r,
      conversation: analysis.conversations?.conversationOf[r] ?? 0,
      timestamp: request.timestamp,
      reconstructed: reconstructedOf(analysis, r),
      predicted: row?.predicted ?? null,
      recordedPrompt: row?.recordedPrompt ?? null,
      recordedRead: request.recorded?.cacheRead ?? null,
      simulatedRead: actual?.[r]?.read ?? 0,
      optimizedRead: optimized?.[r]?.read ?? 0,
      compaction: compactions.has(r),
    };
  });
  return { points, timed: points.length > 0 && points.every((p) => p.timestamp !== null), compactions: compactions.size };
}

function reconstructedOf(analysis: Analysis, r: number): number {
  const tokens = analysis.tokens[r];
  return tokens === undefined ? 0 : reconstructedTokens(tokens);
}
