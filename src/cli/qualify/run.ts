// Runs the whole offline qualification: for every supported API and fixture case, build the complete payload
// with the installed pi-ai builder as is and with the targeted earlier results cleared, then judge the diff.
import {
  QUALIFICATION_SCHEMA,
  type QualificationApiEntry,
  type QualificationRecord,
} from '../../core/clearing/qualification-record.ts';
import { buildPayload, installFetchGuard, qualificationModel } from './build.ts';
import { evaluateCase } from './evaluate.ts';
import { expectedQualification } from './expected.ts';
import { clearTargetedResults, fixtureCases, QUALIFICATION_MODELS, QUALIFIED_APIS, type QualifiedApi } from './fixtures.ts';

async function qualifyApi(api: QualifiedApi): Promise<QualificationApiEntry> {
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

/** Builds and diffs every API's fixtures offline and returns the qualification record. */
export async function runQualification(): Promise<QualificationRecord> {
  const expected = await expectedQualification();
  const guard = installFetchGuard();
  const apis: QualificationApiEntry[] = [];
  try {
    for (const api of QUALIFIED_APIS) apis.push(await qualifyApi(api));
  } finally {
    guard.restore();
  }
  // A builder that reached the network would make the run meaningless (and not offline): nothing qualifies.
  const offline = guard.calls === 0;
  return {
    schema: QUALIFICATION_SCHEMA,
    fixtures: 'synthetic',
    piAiVersion: expected.piAiVersion,
    sourceDigest: expected.sourceDigest,
    networkCalls: guard.calls,
    apis: offline ? apis : apis.map((entry) => ({ ...entry, result: 'unqualified' })),
  };
}
