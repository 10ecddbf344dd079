// The Claude estimate on projects it was not fitted on: the leave-one-project-out evaluation re-run on the
// committed features of 693 recorded requests from 15 projects' cassettes (tests/tokens/data/, provenance per
// row; docs/tokens.md "Measured error"). Fails when the fit, the model form or the shipped constants regress.
import { describe, expect, it } from 'vitest';
import { CLAUDE_ESTIMATE_BANDS } from '../../src/core/tokens/claude-band.ts';
import { bandOf, fit, leaveOneProjectOut, parameterNames, predict, quantile, readFeatures, shippedParameters, type Scored } from './claude-fit.ts';

const rows = readFeatures();
const heldOut = leaveOneProjectOut(rows);
const errors = (scored: readonly Scored[]) => scored.map((s) => s.error);

describe('Claude estimate, leave one project out', () => {
  it('holds at least 200 recorded requests of at least 10 projects, each with its provenance', () => {
    const projects = new Set(rows.map((r) => r.project));
    expect(rows.length).toBeGreaterThanOrEqual(200);
    expect(projects.size).toBeGreaterThanOrEqual(10);
    for (const row of rows) {
      expect(row.repo, row.path).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(row.commit, row.path).toMatch(/^[0-9a-f]{12}$/);
      expect(Number.isInteger(row.recorded) && row.recorded > 0, row.path).toBe(true);
    }
  });

  it('the features reproduce the shipped estimate (so the fit weighs what the counter counts)', () => {
    const shipped = Float64Array.from(shippedParameters().values());
    for (const row of rows) {
      // Per-segment rounding: at most half a token per segment apart, plus the images' and fixed parts' rounding.
      expect(Math.abs(predict(row, shipped) - row.shipped), `${row.repo}/${row.path}#${row.interaction}`).toBeLessThanOrEqual(row.segments * 0.5 + 2);
    }
  });

  it('meets median ≤ 3% and p90 ≤ 15% on the requests of every project left out in turn', () => {
    const all = errors(heldOut);
    expect(all.length).toBe(rows.length);
    expect(quantile(all, 0.5)).toBeLessThanOrEqual(0.03);
    expect(quantile(all, 0.9)).toBeLessThanOrEqual(0.15);
  });

  it('the shipped constants meet the same targets over every request', () => {
    const shipped = rows.map((r) => Math.abs(r.shipped - r.recorded) / r.recorded);
    expect(quantile(shipped, 0.5)).toBeLessThanOrEqual(0.03);
    expect(quantile(shipped, 0.9)).toBeLessThanOrEqual(0.15);
  });

  it('gives each shape that misses the target a band at least its held-out p90, and the rest meets the target', () => {
    const banded = new Map<number, number[]>();
    const rest: number[] = [];
    for (const s of heldOut) {
      const band = bandOf(s.row, s.row.shipped);
      if (band === null) rest.push(s.error);
      else banded.set(band, [...(banded.get(band) ?? []), s.error]);
    }
    expect(quantile(rest, 0.5)).toBeLessThanOrEqual(0.03);
    expect(quantile(rest, 0.9)).toBeLessThanOrEqual(0.15);
    // Each band is an honest width: no looser than the held-out p90 of the requests it covers (the unknown-size
    // media band, 100%, covers an error up to 7x: a URL image assumed 262 tokens billed 34).
    for (const [band, values] of banded) {
      if (band === CLAUDE_ESTIMATE_BANDS.unknownMedia) continue;
      expect(quantile(values, 0.9), `band ±${band * 100}%`).toBeLessThanOrEqual(band);
    }
  });

  it('refits near the shipped constants on all projects (text factors within 10%, older tool prompts within 40 tokens)', () => {
    const beta = fit(rows);
    const shipped = shippedParameters();
    parameterNames().forEach((name, j) => {
      const value = shipped.get(name)!;
      if (/^older\./.test(name)) expect(Math.abs(beta[j]! / value - 1), name).toBeLessThanOrEqual(0.1);
      if (/^tool:claude-(?:3|4\.0|4\.5):/.test(name)) expect(Math.abs(beta[j]! - value), name).toBeLessThanOrEqual(40);
    });
  });
});
