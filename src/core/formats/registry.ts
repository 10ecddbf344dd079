// The importer registry. Two kinds of importer:
//  - wire importers (wire.ts) turn ONE request body into one ParsedRequest (a record of a log, a batch line, ...);
//  - transcript importers turn a WHOLE file (an agent's session log) into the request sequence it implies.
// The reader asks the transcript importers first (by file name, then by the structure of the first records) and
// falls back to wire records. To add a transcript format: write `src/core/formats/<name>.ts` exporting a
// TranscriptImporter (types.ts) and append it to TRANSCRIPT_IMPORTERS below; nothing else changes.

import type { TranscriptImporter, TranscriptRecord } from './types.ts';
import { claudeCodeImporter } from './claude-code.ts';
import { codexRolloutImporter } from './codex-rollout.ts';
import { geminiCliImporter } from './gemini-cli.ts';
import { clineTaskImporter } from './cline-task.ts';
import { piSessionImporter } from './pi-session.ts';
import { harImporter } from './har.ts';
import { vcrCassetteImporter } from './cassette-vcr.ts';
import { nockImporter } from './cassette-nock.ts';
import { otelSpansImporter } from './otel-spans.ts';
import { liteLlmImporter } from './litellm-log.ts';
import { langfuseImporter } from './langfuse-observations.ts';
import { opencodeStorageImporter } from './opencode-storage.ts';

export const FIRST_RECORDS_FOR_DETECTION = 8;

/** Transcript importers, asked in order. */
export const TRANSCRIPT_IMPORTERS: TranscriptImporter[] = [harImporter, vcrCassetteImporter, nockImporter, otelSpansImporter, liteLlmImporter, langfuseImporter, codexRolloutImporter, clineTaskImporter, piSessionImporter, geminiCliImporter, claudeCodeImporter, opencodeStorageImporter];

/** Whether files of this format (`AnalysisFile.format`) record their compactions (`recordsCompactions`). */
export function recordsCompactions(format: string | null | undefined): boolean {
  return TRANSCRIPT_IMPORTERS.some((importer) => importer.id === format && importer.recordsCompactions === true);
}

export function transcriptImporterByName(fileName: string, importers: readonly TranscriptImporter[] = TRANSCRIPT_IMPORTERS): TranscriptImporter | null {
  return importers.find((importer) => importer.matchesName(fileName)) ?? null;
}

export function transcriptImporterByRecords(
  first: readonly TranscriptRecord[],
  importers: readonly TranscriptImporter[] = TRANSCRIPT_IMPORTERS,
): TranscriptImporter | null {
  return importers.find((importer) => importer.matchesRecords(first)) ?? null;
}
