// The HTML report's one stylesheet (its CSP allows it by hash and nothing else). Light and dark follow
// prefers-color-scheme; every text colour is ≥ 4.5:1 on its surface (the report e2e runs axe-core on both). At phone
// widths nothing is wider than the screen: tables scroll inside themselves, long paths wrap, and the treemap is
// drawn in a narrow layout of its own (./treemap.ts) so its labels stay legible.
import { CATEGORIES } from '../../core/model.ts';
import { CATEGORY_COLOURS, LABEL_INK } from '../palette.ts';

/** Below this viewport width the narrow treemap is shown instead of the wide one. */
export const NARROW_MAX_PX = 760;

export function reportStylesheet(): string {
  const swatches = CATEGORIES.map(
    (c) => `.c-${c}{background:${CATEGORY_COLOURS[c]};color:${LABEL_INK[c]}}.f-${c}{fill:${CATEGORY_COLOURS[c]}}.t-${c}{fill:${LABEL_INK[c]}}`,
  ).join('');
  return [
    ':root{color-scheme:light dark;--fg:#1d1f23;--bg:#fbfbfa;--muted:#5d6470;--line:#d9dce1;--err:#b3261e;--warn:#8a5a00;--info:#2f5f98;--link:#1f5fae;--add:#2e7d32}',
    '@media (prefers-color-scheme:dark){:root{--fg:#e7e9ee;--bg:#16181d;--muted:#a3aab5;--line:#343841;--err:#ff8a80;--warn:#f3c56b;--info:#8ab4f8;--link:#8ab4f8;--add:#81c784}}',
    'body{font:14px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;padding:1.5rem;overflow-wrap:anywhere}',
    'a{color:var(--link)}',
    'h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}h3{font-size:1rem}',
    '.muted{color:var(--muted)}table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;overflow-wrap:normal}',
    'th,td{text-align:right;padding:.2rem .45rem;border-bottom:1px solid var(--line)}th:first-child,td:first-child,.l{text-align:left}',
    '.finding{border-left:4px solid var(--line);padding:.35rem .75rem;margin:.5rem 0}.finding p{margin:.2rem 0}',
    '.sev-error{border-color:var(--err)}.sev-warning{border-color:var(--warn)}.sev-info{border-color:var(--info)}',
    '.tag{font:12px ui-monospace,monospace;padding:0 .3rem;border:1px solid var(--line);border-radius:3px}',
    '.sw{display:inline-block;padding:0 .4rem;border-radius:3px;margin:0 .25rem .25rem 0;font-size:12px}',
    'svg{max-width:100%;height:auto;display:block}.tm text{font:14px system-ui,sans-serif;pointer-events:none}.tm-narrow text{font-size:12px}',
    `.tm-narrow{display:none;max-width:480px}@media (max-width:${NARROW_MAX_PX}px){.tm-wide{display:none}.tm-narrow{display:block}}`,
    'details{margin:.5rem 0}summary{cursor:pointer}details.about{border:1px solid var(--line);border-radius:4px;padding:.3rem .6rem}details.about ul{margin:.3rem 0;padding-left:1.2rem}',
    'pre{font:12px/1.4 ui-monospace,monospace;overflow-x:auto;border:1px solid var(--line);padding:.4rem;margin:.3rem 0 1rem;white-space:pre}',
    '.add{color:var(--add)}.del{color:var(--err)}.fold{color:var(--muted)}',
    '@media (max-width:700px){body{padding:.75rem}table{display:block;overflow-x:auto;width:auto;max-width:100%}}',
    swatches,
  ].join('\n');
}
