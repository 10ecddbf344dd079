// Occurrences of a finding folded into one finding per code and key, with its request ranges, in a stable order.
import { FINDING_SEVERITY, SEVERITY_RANK, type Finding, type FindingCode, type Severity } from './types.ts';

export type Render = (when: string, values: readonly number[]) => { message: string; fix: string };

const CODE_ORDER = Object.keys(FINDING_SEVERITY) as FindingCode[];

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "request 3", "requests 2–24, 23×", "requests 2–4, 7, 9–10, 6×" (1-based). */
export function describeRequests(indices: readonly number[]): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  if (sorted.length === 1) return `request ${sorted[0]! + 1}`;
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    ranges.push(i === j ? `${sorted[i]! + 1}` : `${sorted[i]! + 1}–${sorted[j]! + 1}`);
    i = j + 1;
  }
  return `requests ${ranges.join(', ')}, ${sorted.length}×`;
}

export interface Occurrence {
  code: FindingCode;
  /** Occurrences with the same code and key are one finding. */
  key: string;
  request: number;
  segmentPath: string | null;
  detail: string | null;
  severity?: Severity;
  value?: number | null;
  render: Render;
}

/** Collects occurrences and folds recurring ones into one finding each, in a deterministic order. */
export class FindingGroups {
  private readonly byKey = new Map<string, { first: Occurrence; requests: number[]; values: number[] }>();

  add(occurrence: Occurrence): void {
    const key = `${occurrence.code}\u0000${occurrence.key}`;
    const group = this.byKey.get(key);
    const value = occurrence.value ?? null;
    if (group === undefined) {
      this.byKey.set(key, { first: occurrence, requests: [occurrence.request], values: value === null ? [] : [value] });
      return;
    }
    if (group.requests[group.requests.length - 1] !== occurrence.request) group.requests.push(occurrence.request);
    if (value !== null) group.values.push(value);
  }

  has(code: FindingCode): boolean {
    for (const { first } of this.byKey.values()) if (first.code === code) return true;
    return false;
  }

  findings(): Finding[] {
    const findings: Finding[] = [];
    for (const { first, requests, values } of this.byKey.values()) {
      const sorted = [...new Set(requests)].sort((a, b) => a - b);
      const { message, fix } = first.render(describeRequests(sorted), values.length > 0 ? values : [0]);
      findings.push({
        code: first.code,
        severity: first.severity ?? FINDING_SEVERITY[first.code],
        requests: sorted,
        segmentPath: first.segmentPath,
        message,
        fix,
        detail: first.detail,
      });
    }
    return findings.sort(
      (a, b) =>
        SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
        a.requests[0]! - b.requests[0]! ||
        CODE_ORDER.indexOf(a.code) - CODE_ORDER.indexOf(b.code) ||
        compareText(a.segmentPath ?? '', b.segmentPath ?? ''),
    );
  }
}
