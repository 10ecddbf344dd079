import { describe, expect, it } from 'vitest';
import { categoryOf, identityProven, type IdentityContext } from '../../src/core/clearing/identity.ts';
import { parseAgentConfig, parseAppAllowlist, parseRoutes } from '../../src/core/clearing/inputs.ts';
import { analyzeClearing } from '../../src/core/clearing/analyze.ts';
import { buildSidecar } from '../../src/core/clearing/sidecar-writer.ts';
import { sha256Hex } from '../../src/core/clearing/sidecar.ts';
import type { McpOrigin } from '../../src/core/clearing/journal/replay.ts';
import { assistant, journal, loadSql, ROUTE, text, toolResult, user } from './helpers.ts';

const DIGEST = sha256Hex('synthetic server identity');

function context(config: unknown, allowlist: unknown = [], contradicted: Partial<IdentityContext> = {}): IdentityContext {
  const parsedConfig = config === undefined ? null : parseAgentConfig(config);
  const parsedAllowlist = parseAppAllowlist(allowlist);
  if ((parsedConfig && !parsedConfig.ok) || !parsedAllowlist.ok) throw new Error('bad input');
  return {
    config: parsedConfig ? parsedConfig.value : null,
    allowlist: parsedAllowlist.value,
    contradictedRuns: new Set(),
    periodContradicted: false,
    ...contradicted,
  };
}

const origin = (overrides: Partial<McpOrigin> = {}): McpOrigin => ({
  server: 'synthetic-server',
  tool: 'lookup',
  serverIdentityDigest: DIGEST,
  readOnlyHint: true,
  destructiveHint: false,
  ...overrides,
});

describe('identity proof', () => {
  it('proves enabled read-only built-ins without an MCP name collision', () => {
    const ctx = context({ builtins: ['read', 'bash', 'grep'], mcpTools: [{ exposedName: 'grep' }] });
    expect(identityProven(ctx, 'read', 'run', null)).toBe(true);
    expect(identityProven(ctx, 'bash', 'run', null)).toBe(false); // effectful
    expect(identityProven(ctx, 'grep', 'run', null)).toBe(false); // collides with an MCP name: ambiguous
    expect(identityProven(ctx, 'ls', 'run', null)).toBe(false); // not enabled
    expect(identityProven(context({ builtins: ['read'] }), 'read', 'run', null)).toBe(false); // missing inventory
    expect(identityProven(context({ builtins: ['read'], mcpTools: 'none' }, [], { periodContradicted: true }), 'read', 'run', null)).toBe(false);
  });

  it('uses per-run proofs by run id and refuses missing or repeated ids', () => {
    const ctx = context([{ runId: 'r1', builtins: ['read'], mcpTools: 'none' }]);
    expect(identityProven(ctx, 'read', 'r1', null)).toBe(true);
    expect(identityProven(ctx, 'read', 'r2', null)).toBe(false);
    expect(parseAgentConfig([{ builtins: ['read'], mcpTools: 'none' }])).toMatchObject({ ok: false, error: { reason: 'missing', at: '[0].runId' } });
    expect(
      parseAgentConfig([
        { runId: 'r1', builtins: ['read'], mcpTools: 'none' },
        { runId: 'r1', builtins: ['ls'], mcpTools: 'none' },
      ]),
    ).toMatchObject({ ok: false, error: { reason: 'duplicate_entry', at: '[1].runId' } });
  });

  it('proves an app tool only through an exact allowlist entry and read-only, non-destructive origin hints', () => {
    const allow = [{ server: 'synthetic-server', tool: 'lookup', serverIdentityDigest: DIGEST, readOnly: true }];
    const ctx = context(undefined, allow);
    expect(identityProven(ctx, 'lookup', null, origin())).toBe(true);
    expect(identityProven(ctx, 'other-name', null, origin())).toBe(false); // origin tool ≠ message tool name
    expect(identityProven(ctx, 'lookup', null, origin({ destructiveHint: true }))).toBe(false);
    expect(identityProven(ctx, 'lookup', null, origin({ readOnlyHint: false }))).toBe(false);
    expect(identityProven(ctx, 'lookup', null, origin({ serverIdentityDigest: sha256Hex('repointed') }))).toBe(false);
    expect(identityProven(context(undefined, []), 'lookup', null, origin())).toBe(false); // names alone never qualify
    expect(parseAppAllowlist([{ ...allow[0], readOnly: false }])).toMatchObject({ ok: false, error: { reason: 'value_out_of_range' } });
  });

  it('categorizes by name and origin', () => {
    expect([categoryOf('read', null), categoryOf('bash', null), categoryOf('todo_write', null), categoryOf('web_fetch', null), categoryOf('lookup', origin()), categoryOf('custom', null)]).toEqual([
      'file_read',
      'effectful',
      'instruction_history',
      'web',
      'mcp',
      'other',
    ]);
  });

  it('validates routes field by field', () => {
    expect(parseRoutes([ROUTE]).ok).toBe(true);
    expect(parseRoutes([{ ...ROUTE, cacheLifetimeMs: 'unknown' }])).toMatchObject({ ok: true, value: [{ cacheLifetimeMs: null }] });
    expect(parseRoutes([])).toMatchObject({ ok: false, error: { reason: 'shape' } });
    expect(parseRoutes([ROUTE, ROUTE])).toMatchObject({ ok: false, error: { reason: 'duplicate_entry', at: '[1].api' } });
    expect(parseRoutes([{ ...ROUTE, api: 'google-generative-ai' }])).toMatchObject({ ok: false, error: { reason: 'unsupported_api' } });
    expect(parseRoutes([{ ...ROUTE, prices: { ...ROUTE.prices, cacheRead: -1 } }])).toMatchObject({ ok: false, error: { at: '[0].prices.cacheRead' } });
  });
});

describe('attestation contradicted by the journals', () => {
  it('a call outside the attested inventory voids the period attestation', async () => {
    const SQL = await loadSql();
    const source = journal('s', [
      user('u1', 'q', 1_000),
      assistant('a1', 2_000, { calls: [{ id: 'c1', name: 'read' }, { id: 'c2', name: 'surprise_tool' }] }),
      toolResult('r1', 'c1', 'read', text('x'.repeat(400)), 3_000),
      toolResult('r2', 'c2', 'surprise_tool', text('y'), 3_100),
      assistant('a2', 4_000, { text: 'ok' }),
    ]);
    const run = (agentConfig: unknown) =>
      analyzeClearing({
        SQL,
        journals: [source],
        sidecar: { bytes: buildSidecar(SQL, { rows: [] }), companionPresent: false },
        routes: [ROUTE],
        qualification: { ok: false, code: 'PAYLOAD_UNQUALIFIED', why: 'synthetic' },
        agentConfig,
      }).record.apis[0]?.identity;
    expect(run({ builtins: ['read'], mcpTools: 'none' })).toEqual({ plainTextCandidates: 2, provenCandidates: 0 });
    expect(run({ builtins: ['read'], mcpTools: [{ exposedName: 'surprise_tool' }] })).toEqual({ plainTextCandidates: 2, provenCandidates: 1 });
  });

  it('a snapshot change reported after reading makes the record incomplete', async () => {
    const SQL = await loadSql();
    const { record } = analyzeClearing({
      SQL,
      journals: [journal('s', [user('u1', 'q', 1), assistant('a1', 2)])],
      sidecar: { bytes: buildSidecar(SQL, { rows: [] }), companionPresent: false },
      routes: [ROUTE],
      qualification: { ok: false, code: 'PAYLOAD_UNQUALIFIED', why: 'synthetic' },
      snapshotChanged: () => true,
    });
    expect(record).toMatchObject({ complete: false, verdict: 'DEFER', codes: ['SNAPSHOT_CHANGED'] });
    expect(record.apis[0]?.codes[0]).toBe('SNAPSHOT_INCOMPLETE');
  });
});
