/** What the qualification check (src/core/clearing/qualification-record.ts) returns, structurally. */
export type QualificationStatus =
  | { ok: true; piAiVersion: string; apis: Record<string, { unintendedDifferences: number; qualified: boolean }> }
  | { ok: false; code: 'PAYLOAD_UNQUALIFIED'; why: string };
