// The app's "Export" of the analysis on screen: the ctxray.analysis record as `ctxray analyze --json` writes it and
// the HTML report as `--html` writes it, the same bytes from the same core. Both are built from the analysis with
// the CLI's default usage calibration (the app shows the uncalibrated figures until the user asks, but a saved
// record must be the CLI's), computed once per session and only when asked.
import { usageCalibratedAnalysis } from '../../core/analysis/attach.ts';
import { buildRecord } from '../../core/analysis/record.ts';
import type { Analysis } from '../../core/analysis/types.ts';
import { recordJson } from '../../core/text/json-safe.ts';
import { renderHtmlReport } from '../../render/report/html.ts';
import { QueryError, requireSession, type WorkerSession } from '../session.ts';

export interface AnalysisExportParams {
  /** `record`: the ctxray.analysis JSON; `html`: the self-contained report (no payload text). */
  format: 'record' | 'html';
}

const calibratedBySession = new WeakMap<WorkerSession, Analysis>();

function calibratedOf(session: WorkerSession): Analysis {
  let analysis = calibratedBySession.get(session);
  if (analysis === undefined) {
    analysis = usageCalibratedAnalysis(session.analysis as Analysis).analysis;
    calibratedBySession.set(session, analysis);
  }
  return analysis;
}

export function analysisExportQuery(session: WorkerSession | null, params: unknown): string {
  const current = requireSession(session);
  const format = typeof params === 'object' && params !== null ? (params as { format?: unknown }).format : undefined;
  if (format !== 'record' && format !== 'html') throw new QueryError('analysis-export: `format` must be record or html.');
  const analysis = calibratedOf(current);
  if (format === 'record') return recordJson(buildRecord(analysis));
  if (analysis.cache === undefined) throw new QueryError('analysis-export: this analysis has no cache analysis to report.');
  return renderHtmlReport(analysis, analysis.cache, { content: false });
}
