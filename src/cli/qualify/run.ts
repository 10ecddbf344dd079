// Runs the whole offline qualification: for every supported API and fixture case, build the complete payload
// with the installed pi-ai builder as is and with the targeted earlier results cleared, then judge the diff.
import {
  QUALIFICATION_SCHEMA,
  type QualificationApiEntry,
  type QualificationRecord,
} from '../../core/clearing/qualification-record.ts';
import { buildPayload, installFetchGuard, qualificationModel } from './build.ts';
import { pathKey } from './diff.ts';
import { evaluateCase } from './evaluate.ts';
import { expectedQualification } from '../../node/qualification.ts';
import { clearTargetedResults, fixtureCases, QUALIFICATION_MODELS, QUALIFIED_APIS, type QualifiedApi } from './fixtures.ts';

/** Where an unintended difference was found: structural payload paths only (keys and indices, no content). */
export interface UnintendedFinding {
  api: QualifiedApi;
  fixture: string;
  /** e.g. $."messages"[3]."content"[0]."signature", or "(unlocated target)". */
  location: string;
  kind: string;
}

export interface QualificationRun {
  record: QualificationRecord;
  findings: UnintendedFinding[];
}

async function qualifyApi(api: QualifiedApi, findings: UnintendedFinding[]): Promise<QualificationApiEntry> {
  const model = qualificationModel(api);
  const cases = fixtureCases(api);
  let targetedLeaves = 0;
  let changedLeaves = 0;
  let unintendedDifferences = 0;
  for (const fixture of cases) {
    const uncleared = await buildPayload(model, fixture.context);
    const cleared = await buildPayload(model, clearTargetedResults(fixture));
    const outcome = evaluateCase(api, uncleared, cleared, fixture.targetedToolCallIds);
    targetedLeaves += outcome.targetedLeaves;
    changedLeaves += outcome.changedLeaves;
    unintendedDifferences += outcome.unintendedDifferences;
    for (const difference of outcome.unintended) {
      findings.push({ api, fixture: fixture.name, location: pathKey(difference.path), kind: difference.kind });
    }
    for (let i = outcome.unintended.length; i < outcome.unintendedDifferences; i++) {
      findings.push({ api, fixture: fixture.name, location: '(targeted result not located exactly once)', kind: 'reference' });
    }
  }
  const qualified = unintendedDifferences === 0 && changedLeaves > 0 && changedLeaves === targetedLeaves;
  return {
    api,
    provider: QUALIFICATION_MODELS[api].provider,
    model: QUALIFICATION_MODELS[api].id,
    cases: cases.length,
    targetedLeaves,
    changedLeaves,
    unintendedDifferences,
    result: qualified ? 'qualified' : 'unqualified',
    ...(api === 'openai-codex-responses' ? { alwaysDefers: 'wire-unproven' as const } : {}),
  };
}

/** Builds and diffs every API's fixtures offline; returns the record and where any unintended differences are. */
export async function runQualification(): Promise<QualificationRun> {
  const expected = await expectedQualification();
  const guard = installFetchGuard();
  const apis: QualificationApiEntry[] = [];
  const findings: UnintendedFinding[] = [];
  try {
    for (const api of QUALIFIED_APIS) apis.push(await qualifyApi(api, findings));
  } finally {
    guard.restore();
  }
  // A builder that reached the network would make the run meaningless (and not offline): nothing qualifies.
  const offline = guard.calls === 0;
  const record: QualificationRecord = {
    schema: QUALIFICATION_SCHEMA,
    fixtures: 'synthetic',
    piAiVersion: expected.piAiVersion,
    sourceDigest: expected.sourceDigest,
    networkCalls: guard.calls,
    apis: offline ? apis : apis.map((entry) => ({ ...entry, result: 'unqualified' })),
  };
  return { record, findings };
}
