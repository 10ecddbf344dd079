// The warnings about recorded usage refused as impossible and a calibration factor refused as outside its band,
// one located line each (file:line, field, value), for the CLI's stderr.
import type { Analysis } from '../../core/analysis/types.ts';
import { CALIBRATION_BAND } from '../../core/cache/calibrate.ts';
import { describeUsageProblem } from '../../core/input/usage-check.ts';

export function usageWarningLines(analysis: Analysis): string[] {
  const lines = (analysis.usageWarnings ?? []).map((warning) => {
    const name = analysis.files[warning.file]?.name ?? `file ${warning.file + 1}`;
    return `${name}:${warning.line}: recorded usage not used (the simulation stands in): ${describeUsageProblem(warning)}`;
  });
  const refused = analysis.calibrationRefused;
  if (refused !== undefined) {
    lines.push(
      `calibration from recorded usage refused: ×${refused.factor.toPrecision(3)} (median over ${refused.requests} request(s)) is outside ${CALIBRATION_BAND.min}–${CALIBRATION_BAND.max}×; the plain estimates stand`,
    );
  }
  return lines;
}
