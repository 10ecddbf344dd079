// node --import tsx scripts/claude-estimate-eval.ts <requests.jsonl> <recorded.jsonl>
// The Claude estimate's error against recorded usage, per source project (docs/tokens.md, "Measured error").
// <requests.jsonl>: one Anthropic Messages request body per line, each an independent request; <recorded.jsonl>:
// line for line, {"project": "...", "prompt": N} with N = input_tokens + cache_read_input_tokens +
// cache_creation_input_tokens from the response the request got. Both files stay outside the repository (they
// hold third-party payloads); the bodies are analyzed without their usage (analyzeInput does not calibrate).
import { readFileSync } from 'node:fs';
import { analyzeInput } from '../src/core/analysis/analyze.ts';
import { usageMeasuresOtherPrompt } from '../src/core/tokens/claude.ts';

interface Recorded {
  project: string;
  prompt: number;
}

const [requestsFile, recordedFile] = process.argv.slice(2);
if (!requestsFile || !recordedFile) {
  console.error('usage: claude-estimate-eval.ts <requests.jsonl> <recorded.jsonl>');
  process.exit(1);
}
const text = readFileSync(requestsFile, 'utf8');
const recorded = readFileSync(recordedFile, 'utf8').trim().split('\n').map((line, i) => {
  const value = JSON.parse(line) as Partial<Recorded>;
  if (typeof value.project !== 'string' || typeof value.prompt !== 'number') throw new Error(`${recordedFile}:${i + 1}: needs "project" and "prompt"`);
  return value as Recorded;
});
const analysis = await analyzeInput([{ name: 'requests.jsonl', bytes: new TextEncoder().encode(text) }], { format: 'anthropic-messages' });

/** |estimate − recorded| ÷ recorded, and the same with errors of at most 5 tokens counted as 0 (the check's allowance). */
const errors = new Map<string, { relative: number[]; allowed: number[] }>();
let labelled = 0;
analysis.requests.forEach((request, i) => {
  const row = recorded[request.line - 1];
  if (!row || row.prompt <= 0) return;
  if (usageMeasuresOtherPrompt(request) || analysis.tokens[i]!.notes.includes('server_tool_not_modelled')) {
    labelled++;
    return;
  }
  const miss = Math.abs(analysis.tokens[i]!.total - row.prompt);
  for (const project of [row.project, 'all']) {
    const bucket = errors.get(project) ?? { relative: [], allowed: [] };
    bucket.relative.push(miss / row.prompt);
    bucket.allowed.push(miss <= 5 ? 0 : miss / row.prompt);
    errors.set(project, bucket);
  }
});

const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * q) - 1)] ?? NaN;
const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;
console.log(`${labelled} labelled requests left out (server tools, MCP servers, context_management)`);
for (const [project, { relative, allowed }] of errors) {
  console.log(`${project.padEnd(28)} n=${String(relative.length).padStart(4)}  median ${pct(quantile(relative, 0.5))}  p90 ${pct(quantile(relative, 0.9))}  p90 (≤ 5 tokens as 0) ${pct(quantile(allowed, 0.9))}`);
}
